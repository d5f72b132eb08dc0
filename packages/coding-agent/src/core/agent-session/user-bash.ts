import { StringDecoder } from "node:string_decoder";
import type { SettingsManager } from "../../config/index.js";
import type { BashResult } from "../extensions/index.js";
import type { BashExecutionMessage, SessionManager } from "../session/index.js";
import { type BashOperations, createLocalBashOperations } from "../tools/index.js";
import { OutputAccumulator } from "../tools/shell/output-accumulator.js";
import { buildShellEnvironment } from "../tools/shell/session-env.js";

// Cursor movement, colours and other terminal control sequences would corrupt a client's display.
const CONTROL_SEQUENCES =
	/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function sanitize(text: string): string {
	return text.replace(CONTROL_SEQUENCES, "");
}

export interface UserBashHost {
	readonly cwd: string;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	/** A run is active: recorded results wait so a tool call and its result are never separated. */
	isRunning(): boolean;
	/** Persists a `bashExecution` message and refreshes the agent's context. */
	append(message: BashExecutionMessage): void;
}

export interface ExecuteBashOptions {
	excludeFromContext?: boolean;
	/** The caller's id for the command (RPC `bash` id); informational. */
	id?: string;
	/** Execution backend from a `user_bash` handler; default the local shell. */
	operations?: BashOperations;
}

/**
 * User `!` commands (docs/design/session-runtime.md#services): run in the session cwd beside any agent run, stream
 * sanitized output, and become `bashExecution` messages for the next prompt (held while a run is
 * active and flushed when it settles).
 */
export class UserBash {
	private readonly running = new Set<AbortController>();
	private readonly pending: BashExecutionMessage[] = [];

	constructor(private readonly host: UserBashHost) {}

	get isRunning(): boolean {
		return this.running.size > 0;
	}

	get hasPendingMessages(): boolean {
		return this.pending.length > 0;
	}

	/** Aborts every running command; each reports `cancelled: true`. */
	abort(): void {
		for (const controller of this.running) controller.abort();
	}

	async execute(
		command: string,
		onChunk?: (text: string) => void,
		options: ExecuteBashOptions = {},
	): Promise<BashResult> {
		const { host } = this;
		const operations =
			options.operations ?? createLocalBashOperations({ shellPath: host.settingsManager.getShellPath() });
		const prefix = host.settingsManager.getShellCommandPrefix();
		const output = new OutputAccumulator("tau-bash");
		const decoder = new StringDecoder("utf8");
		const controller = new AbortController();
		this.running.add(controller);
		// The user's own commands get no TAU_SESSION_* tool environment (docs/design/interactive.md#user-shell-commands); without a
		// tool context inherited session variables are only removed.
		const env = buildShellEnvironment(undefined);
		let exitCode: number | undefined;
		let cancelled = false;
		try {
			const exit = await operations.exec(prefix ? `${prefix}\n${command}` : command, host.cwd, {
				onData: (data) => {
					output.append(data);
					const text = sanitize(decoder.write(data));
					if (text !== "") onChunk?.(text);
				},
				signal: controller.signal,
				env,
			});
			exitCode = exit.exitCode ?? undefined;
			cancelled = controller.signal.aborted;
		} catch (error) {
			if (!controller.signal.aborted) throw error;
			cancelled = true;
		} finally {
			this.running.delete(controller);
			output.finish();
		}
		const snapshot = output.snapshot();
		const result: BashResult = {
			output: sanitize(snapshot.truncation.content),
			exitCode: cancelled ? undefined : exitCode,
			cancelled,
			truncated: snapshot.truncation.truncated,
		};
		if (snapshot.fullOutputPath) result.fullOutputPath = snapshot.fullOutputPath;
		this.record(command, result, options);
		return result;
	}

	record(command: string, result: BashResult, options: { excludeFromContext?: boolean } = {}): void {
		const message: BashExecutionMessage = {
			role: "bashExecution",
			command,
			output: result.output,
			exitCode: result.exitCode,
			cancelled: result.cancelled,
			truncated: result.truncated,
			timestamp: Date.now(),
		};
		if (result.fullOutputPath) message.fullOutputPath = result.fullOutputPath;
		if (options.excludeFromContext) message.excludeFromContext = true;
		if (this.host.isRunning()) this.pending.push(message);
		else this.host.append(message);
	}

	/** Appends the results held during a run (at its start, on failure and when it settles). */
	flush(): void {
		for (const message of this.pending.splice(0)) this.host.append(message);
	}
}
