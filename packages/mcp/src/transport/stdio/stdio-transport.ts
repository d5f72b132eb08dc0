import { type ChildProcess, spawn } from "node:child_process";
import { McpConnectionClosedError } from "../../errors.js";
import type { JsonRpcMessage } from "../../protocol.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type McpTransport, TransportListeners } from "../transport.js";
import { LineFramer } from "./line-framer.js";
import { signalGroup, trackGroup, untrackGroup } from "./process-groups.js";

/** Options of `StdioTransport`: the command to start, its arguments, directory and environment. */
export interface StdioTransportOptions {
	command: string;
	args?: string[];
	cwd?: string;
	/** Merged over `process.env` unless `inheritEnv` is false. */
	env?: Record<string, string>;
	inheritEnv?: boolean;
	stderr?: "pipe" | "inherit";
	onStderr?(chunk: string): void;
	maxMessageBytes?: number;
	/** Bytes of stderr tail kept (64 KiB). */
	maxStderrBytes?: number;
	/** Grace period before SIGKILL during close (2000 ms). */
	closeTimeoutMs?: number;
}

/** How a server process ended: its exit code, or the signal that stopped it. */
export interface StdioExit {
	code: number | null;
	signal: NodeJS.Signals | null;
}

const isWindows = process.platform === "win32";

/** Runs an MCP server as a child process speaking newline-delimited JSON-RPC on stdin/stdout. */
export class StdioTransport extends TransportListeners implements McpTransport {
	private child: ChildProcess | undefined;
	private started = false;
	private closed = false;
	private childClosed: Promise<void> | undefined;
	private stderrTail = "";
	private closePromise: Promise<void> | undefined;
	private closeTimers: ReturnType<typeof setTimeout>[] = [];

	constructor(private readonly options: StdioTransportOptions) {
		super();
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last `maxStderrBytes` of the server's stderr. */
	get stderr(): string {
		return this.stderrTail;
	}

	/** How the server process ended; undefined while it runs (or before it started). */
	get exit(): StdioExit | undefined {
		const child = this.child;
		if (!child || (child.exitCode === null && child.signalCode === null)) return undefined;
		return { code: child.exitCode, signal: child.signalCode };
	}

	start(): Promise<void> {
		if (this.started) return Promise.reject(new Error("StdioTransport already started"));
		this.started = true;
		const { options } = this;
		const env = options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env };
		const child = spawn(options.command, options.args ?? [], {
			cwd: options.cwd,
			env,
			stdio: ["pipe", "pipe", options.stderr === "inherit" ? "inherit" : "pipe"],
			// Its own process group, so close can terminate the server and everything it started.
			detached: !isWindows,
			windowsHide: true,
		});
		this.child = child;
		const framer = new LineFramer(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, {
			message: (message) => this.messages.emit(message),
			error: (error) => this.errors.emit(error),
		});
		child.stdout?.on("data", (data: Buffer) => framer.push(data));
		child.stdout?.on("end", () => framer.end());
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (text: string) => {
			const max = options.maxStderrBytes ?? 64 * 1024;
			this.stderrTail = (this.stderrTail + text).slice(-max);
			options.onStderr?.(text);
		});
		child.stdin?.on("error", (error) => this.errors.emit(error));
		this.childClosed = new Promise((resolve) => {
			child.once("close", () => {
				if (child.pid !== undefined && !isWindows) {
					// Descendants that ignored stdin EOF must not outlive the server.
					signalGroup(child.pid, "SIGTERM");
					untrackGroup(child.pid);
				}
				resolve();
				void this.close();
			});
		});
		return new Promise((resolve, reject) => {
			child.once("spawn", () => {
				if (child.pid !== undefined && !isWindows) trackGroup(child.pid, options.closeTimeoutMs ?? 2000);
				resolve();
			});
			child.once("error", (error) => {
				if (child.pid === undefined) {
					this.closed = true;
					reject(error);
				} else this.errors.emit(error);
			});
		});
	}

	send(message: JsonRpcMessage): Promise<void> {
		const stdin = this.child?.stdin;
		if (this.closed || !stdin || !stdin.writable) return Promise.reject(new McpConnectionClosedError());
		return new Promise((resolve, reject) => {
			stdin.write(`${JSON.stringify(message)}\n`, (error) => {
				if (error) reject(new McpConnectionClosedError(`MCP server stdin failed: ${error.message}`));
				else resolve();
			});
		});
	}

	close(): Promise<void> {
		this.closePromise ??= this.shutdown();
		return this.closePromise;
	}

	/**
	 * Stops the server from holding the host's event loop open, for a host that exits without waiting
	 * for close() to finish: a group still running when the host exits gets SIGTERM, then SIGKILL.
	 */
	release(): void {
		const child = this.child;
		if (!child) return;
		child.unref();
		for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?(): void } | null)?.unref?.();
		for (const timer of this.closeTimers) timer.unref();
	}

	/** MCP stdio shutdown: EOF, then SIGTERM to the group, then SIGKILL. */
	private async shutdown(): Promise<void> {
		this.closed = true;
		const child = this.child;
		const childClosed = this.childClosed;
		if (child?.pid !== undefined && childClosed) {
			const closeTimeoutMs = this.options.closeTimeoutMs ?? 2000;
			const running = child.exitCode === null && child.signalCode === null;
			child.stdin?.end();
			// A server that already exited may have left descendants holding its pipes: no grace period.
			const termDelay = running ? Math.min(500, closeTimeoutMs) : 0;
			this.closeTimers = [
				setTimeout(() => this.kill(child, "SIGTERM"), termDelay),
				setTimeout(() => this.kill(child, "SIGKILL"), termDelay + closeTimeoutMs),
			];
			await childClosed;
			for (const timer of this.closeTimers) clearTimeout(timer);
			this.closeTimers = [];
		}
		this.closes.emit();
		this.closes.clear();
	}

	private kill(child: ChildProcess, signal: NodeJS.Signals): void {
		if (child.pid === undefined) return;
		if (isWindows) {
			spawn("taskkill", ["/pid", String(child.pid), "/T", "/F"], { windowsHide: true, stdio: "ignore" });
			return;
		}
		if (!signalGroup(child.pid, signal)) child.kill(signal);
	}
}
