import { StringDecoder } from "node:string_decoder";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { BashResult } from "../../core/extensions/index.js";
import type { BashExecutionMessage } from "../../core/session/index.js";
import { type BashOperations, createLocalBashOperations } from "../../core/tools/index.js";
import { OutputAccumulator } from "../../core/tools/shell/output-accumulator.js";
import { buildShellEnvironment } from "../../core/tools/shell/session-env.js";

// Cursor movement, colours and other terminal control sequences would corrupt a client's display.
const CONTROL_SEQUENCES =
	/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function sanitize(text: string): string {
	return text.replace(CONTROL_SEQUENCES, "");
}

/**
 * The RPC `bash` command (rpc-protocol.md §4.19): user commands run in the session cwd beside any
 * agent run, stream their output, and are recorded as `bashExecution` messages for the next prompt.
 */
export class DirectBash {
	private readonly running = new Set<AbortController>();

	/** Aborts every running command; each reports `cancelled: true`. */
	abortAll(): void {
		for (const controller of this.running) controller.abort();
	}

	async run(
		session: AgentSession,
		request: { command: string; excludeFromContext: boolean },
		onOutput: (delta: string) => void,
	): Promise<BashResult> {
		const decision = await session.extensionRunner.emitUserBash({
			type: "user_bash",
			command: request.command,
			excludeFromContext: request.excludeFromContext,
			cwd: session.cwd,
		});
		if (decision.kind === "abort") throw new Error("Bash command rejected by a user_bash extension handler");
		const result =
			decision.kind === "result"
				? decision.result
				: await this.execute(
						session,
						request.command,
						decision.kind === "operations"
							? decision.operations
							: createLocalBashOperations({ shellPath: session.settingsManager.getShellPath() }),
						onOutput,
					);
		void this.record(session, request, result);
		return result;
	}

	private async execute(
		session: AgentSession,
		command: string,
		operations: BashOperations,
		onOutput: (delta: string) => void,
	): Promise<BashResult> {
		const prefix = session.settingsManager.getShellCommandPrefix();
		const executed = prefix ? `${prefix}\n${command}` : command;
		const output = new OutputAccumulator("tau-bash");
		const decoder = new StringDecoder("utf8");
		const controller = new AbortController();
		this.running.add(controller);
		const env = buildShellEnvironment({
			cwd: session.cwd,
			sessionManager: session.sessionManager,
			model: session.model,
			thinkingLevel: session.thinkingLevel,
		} as Parameters<typeof buildShellEnvironment>[0]);
		let exitCode: number | undefined;
		let cancelled = false;
		try {
			const exit = await operations.exec(executed, session.cwd, {
				onData: (data) => {
					output.append(data);
					const text = sanitize(decoder.write(data));
					if (text !== "") onOutput(text);
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
		return result;
	}

	/** Recording waits for an active run to end so a tool call and its result are never separated. */
	private async record(
		session: AgentSession,
		request: { command: string; excludeFromContext: boolean },
		result: BashResult,
	): Promise<void> {
		await session.waitForIdle();
		const message: BashExecutionMessage = {
			role: "bashExecution",
			command: request.command,
			output: result.output,
			exitCode: result.exitCode,
			cancelled: result.cancelled,
			truncated: result.truncated,
			timestamp: Date.now(),
		};
		if (result.fullOutputPath) message.fullOutputPath = result.fullOutputPath;
		if (request.excludeFromContext) message.excludeFromContext = true;
		session.sessionManager.appendMessage(message);
		session.refreshContext();
	}
}
