import { spawn } from "node:child_process";

export interface ProcessResult {
	exitCode: number | null;
	timedOut: boolean;
	output: string;
}

export interface RunProcessOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	input?: string | Buffer;
	timeoutSec?: number;
	signal?: AbortSignal;
	/** Streams output as it arrives (the bash tool shows it live). */
	onData?: (data: Buffer) => void;
}

/** Kept output is capped: a verifier that prints megabytes must not fill the trial log. */
const OUTPUT_LIMIT = 1_000_000;

/**
 * Runs a command to completion with its own process group, killed as a group on timeout or abort.
 * Never throws for a failing command: the exit status is the result.
 */
export function runProcess(command: string, args: readonly string[], options: RunProcessOptions = {}) {
	return new Promise<ProcessResult>((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			detached: process.platform !== "win32",
			stdio: ["pipe", "pipe", "pipe"],
		});
		let output = "";
		let timedOut = false;
		const collect = (data: Buffer) => {
			options.onData?.(data);
			if (output.length < OUTPUT_LIMIT) output += data.toString("utf8");
		};
		child.stdout.on("data", collect);
		child.stderr.on("data", collect);
		const killGroup = () => {
			try {
				if (child.pid !== undefined) process.kill(process.platform === "win32" ? child.pid : -child.pid, "SIGKILL");
			} catch {
				child.kill("SIGKILL");
			}
		};
		const timer =
			options.timeoutSec !== undefined
				? setTimeout(() => {
						timedOut = true;
						killGroup();
					}, options.timeoutSec * 1000)
				: undefined;
		const onAbort = () => killGroup();
		options.signal?.addEventListener("abort", onAbort, { once: true });
		child.on("error", (error) => {
			if (timer) clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
			reject(error);
		});
		child.on("close", (code, signal) => {
			if (timer) clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
			resolve({ exitCode: signal ? null : code, timedOut, output });
		});
		child.stdin.on("error", () => undefined);
		child.stdin.end(options.input ?? "");
	});
}
