import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { resolve as resolvePath } from "node:path";
import type { AgentMessage } from "@tau/agent";
import type { Api, ImageContent, Model } from "@tau/ai";
import type { SessionEntry, SessionTreeNode } from "../core/session/index.js";
import type {
	BashResult,
	CompactionResult,
	PromptDisposition,
	QueueMode,
	RpcCommandData,
	RpcCommandType,
	RpcExtensionUIRequest,
	RpcExtensionUIResponse,
	RpcSessionState,
	RpcSlashCommand,
	RpcThinkingLevel,
	SessionStats,
} from "../modes/rpc/index.js";
import { attachJsonlLineReader, type JsonAgentSessionEvent, serializeJsonLine } from "../modes/shared/index.js";

/**
 * Options of `RpcClient`: the CLI to start, its working directory, environment, provider, model and extra
 * arguments.
 */
export interface RpcClientOptions {
	/** Default `"dist/cli.js"`, relative to the client's cwd. */
	cliPath?: string;
	/** The child's working directory. */
	cwd?: string;
	/** Merged over `process.env`. */
	env?: Record<string, string>;
	provider?: string;
	model?: string;
	/** Extra CLI arguments, e.g. `["--no-session"]`. */
	args?: string[];
}

/** Receives each session event an `RpcClient` reads from the agent process. */
export type RpcEventListener = (event: JsonAgentSessionEvent) => void;
export type RpcExtensionUIListener = (request: RpcExtensionUIRequest) => void;

const STARTUP_GRACE_MS = 100;
const RESPONSE_TIMEOUT_MS = 30_000;
const DEFAULT_WAIT_MS = 60_000;
const STOP_EXIT_WAIT_MS = 5_000;
const STOP_KILL_WAIT_MS = 2_000;
/** How long an exit report waits for the rest of stderr (a grandchild may hold the pipe open). */
const PIPE_DRAIN_WAIT_MS = 1_000;

/** Whether `promise` settled within `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
	return new Promise<boolean>((resolve) => {
		const timer = setTimeout(() => resolve(false), ms);
		void promise.then(() => {
			clearTimeout(timer);
			resolve(true);
		});
	});
}

interface ResponseRecord {
	id?: string;
	type: "response";
	command: string;
	success: boolean;
	data?: unknown;
	error?: string;
}

interface PendingRequest {
	resolve: (response: ResponseRecord) => void;
	reject: (error: Error) => void;
	timer: NodeJS.Timeout;
}

/**
 * Drives `tau --mode rpc` as a child process (docs/design/cli.md#rpcclient): typed commands correlated by id,
 * session events to listeners, and answers to extension dialogs.
 */
export class RpcClient {
	private child: ChildProcessWithoutNullStreams | undefined;
	private failure: Error | undefined;
	private stderr = "";
	private nextId = 0;
	private exited: Promise<void> = Promise.resolve();
	private readonly pending = new Map<string, PendingRequest>();
	private listeners: RpcEventListener[] = [];
	private uiListeners: RpcExtensionUIListener[] = [];

	constructor(private readonly options: RpcClientOptions = {}) {}

	async start(): Promise<void> {
		if (this.child) throw new Error("Client already started");
		const { cliPath = "dist/cli.js", cwd, env, provider, model, args = [] } = this.options;
		// Relative to the client's cwd, not the child's.
		const argv = [resolvePath(cliPath), "--mode", "rpc"];
		if (provider) argv.push("--provider", provider);
		if (model) argv.push("--model", model);
		argv.push(...args);
		this.failure = undefined;
		this.stderr = "";
		const child = spawn(process.execPath, argv, {
			...(cwd ? { cwd } : {}),
			env: { ...process.env, ...env },
			stdio: ["pipe", "pipe", "pipe"],
		});
		this.child = child;
		child.stderr.on("data", (chunk: Buffer) => {
			const text = chunk.toString("utf8");
			this.stderr += text;
			process.stderr.write(text);
		});
		attachJsonlLineReader(child.stdout, (line) => this.handleLine(line));
		const stderrEnded = new Promise<void>((resolve) => child.stderr.once("end", resolve));
		this.exited = new Promise<void>((resolve) => {
			child.once("exit", (code, signal) => {
				// The exit can be reported before the child's last stderr lines were read; the report carries them.
				void within(stderrEnded, PIPE_DRAIN_WAIT_MS).then(() => {
					this.fail(new Error(`Agent process exited (code=${code} signal=${signal}). Stderr: ${this.stderr}`));
					resolve();
				});
			});
		});
		child.once("error", (error) => this.fail(new Error(`Agent process error: ${error.message}`)));
		child.stdin.on("error", (error) => {
			// A broken pipe usually means the child is exiting: its exit report says more, so it goes first.
			void within(this.exited, PIPE_DRAIN_WAIT_MS).then(() =>
				this.fail(new Error(`Agent process stdin error: ${error.message}`)),
			);
		});

		let graceTimer: NodeJS.Timeout | undefined;
		await Promise.race([
			new Promise<void>((resolve) => {
				graceTimer = setTimeout(resolve, STARTUP_GRACE_MS);
			}),
			this.exited,
		]);
		clearTimeout(graceTimer);
		if (this.failure) throw this.failure;
	}

	/** Ends stdin for an orderly shutdown, then escalates to SIGTERM and SIGKILL if the child lingers. */
	async stop(): Promise<void> {
		const child = this.child;
		if (!child) return;
		const exited = this.exited;
		if (child.exitCode === null && child.signalCode === null) {
			child.stdin.end();
			if (!(await within(exited, STOP_EXIT_WAIT_MS))) {
				child.kill("SIGTERM");
				if (!(await within(exited, STOP_KILL_WAIT_MS))) child.kill("SIGKILL");
			}
		}
		await exited;
		this.child = undefined;
	}

	onEvent(listener: RpcEventListener): () => void {
		this.listeners.push(listener);
		return () => {
			this.listeners = this.listeners.filter((entry) => entry !== listener);
		};
	}

	/** Extension dialogs and notifications; they are delivered to `onEvent` listeners too. */
	onExtensionUIRequest(listener: RpcExtensionUIListener): () => void {
		this.uiListeners.push(listener);
		return () => {
			this.uiListeners = this.uiListeners.filter((entry) => entry !== listener);
		};
	}

	respondToExtensionUI(response: RpcExtensionUIResponse): void {
		this.writeLine(response);
	}

	getStderr(): string {
		return this.stderr;
	}

	// ---- commands ------------------------------------------------------------------------------

	async prompt(
		message: string,
		images?: ImageContent[],
		streamingBehavior?: "steer" | "followUp",
	): Promise<PromptDisposition> {
		const data = await this.request("prompt", { message, images, streamingBehavior });
		return data.disposition;
	}
	async steer(message: string, images?: ImageContent[]): Promise<"queued" | "handled"> {
		return (await this.request("steer", { message, images })).disposition;
	}
	async followUp(message: string, images?: ImageContent[]): Promise<"queued" | "handled"> {
		return (await this.request("follow_up", { message, images })).disposition;
	}
	async abort(): Promise<void> {
		await this.request("abort");
	}
	clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		return this.request("clear_queue");
	}
	newSession(parentSession?: string): Promise<{ cancelled: boolean }> {
		return this.request("new_session", { parentSession });
	}
	getState(): Promise<RpcSessionState> {
		return this.request("get_state");
	}
	setModel(provider: string, modelId: string): Promise<Model<Api>> {
		return this.request("set_model", { provider, modelId });
	}
	cycleModel(): Promise<{ model: Model<Api>; thinkingLevel: RpcThinkingLevel; isScoped: boolean } | null> {
		return this.request("cycle_model");
	}
	async getAvailableModels(): Promise<Model<Api>[]> {
		return (await this.request("get_available_models")).models;
	}
	async setThinkingLevel(level: RpcThinkingLevel): Promise<void> {
		await this.request("set_thinking_level", { level });
	}
	cycleThinkingLevel(): Promise<{ level: RpcThinkingLevel } | null> {
		return this.request("cycle_thinking_level");
	}
	async getAvailableThinkingLevels(): Promise<RpcThinkingLevel[]> {
		return (await this.request("get_available_thinking_levels")).levels;
	}
	async setSteeringMode(mode: QueueMode): Promise<void> {
		await this.request("set_steering_mode", { mode });
	}
	async setFollowUpMode(mode: QueueMode): Promise<void> {
		await this.request("set_follow_up_mode", { mode });
	}
	compact(customInstructions?: string): Promise<CompactionResult> {
		return this.request("compact", { customInstructions });
	}
	async setAutoCompaction(enabled: boolean): Promise<void> {
		await this.request("set_auto_compaction", { enabled });
	}
	async setAutoRetry(enabled: boolean): Promise<void> {
		await this.request("set_auto_retry", { enabled });
	}
	async abortRetry(): Promise<void> {
		await this.request("abort_retry");
	}
	bash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<BashResult> {
		return this.request("bash", { command, excludeFromContext: options.excludeFromContext });
	}
	async abortBash(): Promise<void> {
		await this.request("abort_bash");
	}
	getSessionStats(): Promise<SessionStats> {
		return this.request("get_session_stats");
	}
	exportHtml(outputPath?: string): Promise<{ path: string }> {
		return this.request("export_html", { outputPath });
	}
	switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
		return this.request("switch_session", { sessionPath });
	}
	async fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
		const data = await this.request("fork", { entryId });
		return data.cancelled ? { text: "", cancelled: true } : data;
	}
	clone(): Promise<{ cancelled: boolean }> {
		return this.request("clone");
	}
	async getForkMessages(): Promise<{ entryId: string; text: string }[]> {
		return (await this.request("get_fork_messages")).messages;
	}
	getEntries(since?: string): Promise<{ entries: SessionEntry[]; leafId: string | null }> {
		return this.request("get_entries", { since });
	}
	getTree(): Promise<{ tree: SessionTreeNode[]; leafId: string | null }> {
		return this.request("get_tree");
	}
	async getLastAssistantText(): Promise<string | null> {
		return (await this.request("get_last_assistant_text")).text ?? null;
	}
	async setSessionName(name: string): Promise<void> {
		await this.request("set_session_name", { name });
	}
	async getMessages(): Promise<AgentMessage[]> {
		return (await this.request("get_messages")).messages;
	}
	async getCommands(): Promise<RpcSlashCommand[]> {
		return (await this.request("get_commands")).commands;
	}

	// ---- waiting -------------------------------------------------------------------------------

	/** Resolves on the next `agent_settled`; call while a run is active or subscribe first. */
	waitForIdle(timeout = DEFAULT_WAIT_MS): Promise<void> {
		return this.collectUntilSettled(timeout, "Timeout waiting for agent to become idle").promise.then(() => {});
	}

	/** Every record up to and including the next `agent_settled`. */
	collectEvents(timeout = DEFAULT_WAIT_MS): Promise<JsonAgentSessionEvent[]> {
		return this.collectUntilSettled(timeout, "Timeout collecting events").promise;
	}

	/**
	 * Prompts and collects events until the run settles. A `handled` prompt started no run, so the
	 * events so far are returned at once; a failed prompt rejects and stops collecting.
	 */
	async promptAndWait(
		message: string,
		images?: ImageContent[],
		timeout = DEFAULT_WAIT_MS,
	): Promise<JsonAgentSessionEvent[]> {
		const collector = this.collectUntilSettled(timeout, "Timeout collecting events");
		let disposition: PromptDisposition;
		try {
			disposition = await this.prompt(message, images);
		} catch (error) {
			collector.cancel();
			throw error;
		}
		if (disposition === "handled") return collector.finish();
		return collector.promise;
	}

	// ---- internals -----------------------------------------------------------------------------

	private collectUntilSettled(
		timeout: number,
		timeoutMessage: string,
	): { promise: Promise<JsonAgentSessionEvent[]>; finish: () => JsonAgentSessionEvent[]; cancel: () => void } {
		const events: JsonAgentSessionEvent[] = [];
		let unsubscribe = () => {};
		let timer: NodeJS.Timeout | undefined;
		const stop = () => {
			unsubscribe();
			clearTimeout(timer);
		};
		const promise = new Promise<JsonAgentSessionEvent[]>((resolve, reject) => {
			timer = setTimeout(() => {
				stop();
				reject(new Error(`${timeoutMessage}. Stderr: ${this.stderr}`));
			}, timeout);
			unsubscribe = this.onEvent((event) => {
				events.push(event);
				if (event.type === "agent_settled") {
					stop();
					resolve(events);
				}
			});
		});
		// A cancelled or finished collector must not surface its pending timeout as an unhandled rejection.
		promise.catch(() => {});
		return {
			promise,
			finish: () => {
				stop();
				return events;
			},
			cancel: stop,
		};
	}

	private async request<T extends RpcCommandType>(
		type: T,
		fields: Record<string, unknown> = {},
	): Promise<Exclude<RpcCommandData[T], undefined>> {
		const response = await this.send(type, fields);
		if (!response.success) throw new Error(response.error);
		return response.data as Exclude<RpcCommandData[T], undefined>;
	}

	private send(type: string, fields: Record<string, unknown>): Promise<ResponseRecord> {
		const child = this.child;
		if (!child) throw new Error("Client not started");
		if (this.failure) throw this.failure;
		if (!child.stdin.writable) throw new Error(`Agent process stdin is not writable. Stderr: ${this.stderr}`);
		const id = `req_${++this.nextId}`;
		return new Promise<ResponseRecord>((resolve, reject) => {
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new Error(`Timeout waiting for response to ${type}. Stderr: ${this.stderr}`));
			}, RESPONSE_TIMEOUT_MS);
			this.pending.set(id, { resolve, reject, timer });
			child.stdin.write(serializeJsonLine({ id, type, ...fields }));
		});
	}

	private writeLine(record: unknown): void {
		const child = this.child;
		if (!child) throw new Error("Client not started");
		if (this.failure) throw this.failure;
		child.stdin.write(serializeJsonLine(record));
	}

	private handleLine(line: string): void {
		let record: { type?: unknown; id?: unknown };
		try {
			record = JSON.parse(line);
		} catch {
			return;
		}
		if (typeof record !== "object" || record === null) return;
		if (record.type === "response" && typeof record.id === "string") {
			const pending = this.pending.get(record.id);
			if (pending) {
				this.pending.delete(record.id);
				clearTimeout(pending.timer);
				pending.resolve(record as ResponseRecord);
				return;
			}
		}
		// A snapshot: a listener that unsubscribes during dispatch must not make the next one miss this record.
		for (const listener of [...this.listeners]) listener(record as JsonAgentSessionEvent);
		if (record.type === "extension_ui_request") {
			for (const listener of [...this.uiListeners]) listener(record as RpcExtensionUIRequest);
		}
	}

	private fail(error: Error): void {
		if (this.failure) return;
		this.failure = error;
		for (const [id, pending] of this.pending) {
			clearTimeout(pending.timer);
			pending.reject(error);
			this.pending.delete(id);
		}
	}
}
