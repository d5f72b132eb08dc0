import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { BashResult } from "../../core/extensions/index.js";

/**
 * A user `!` command as the modes run it (RPC `bash`, the interactive shell): `user_bash` handlers
 * decide first (fail-closed), then the session executes the command or records the handler's result.
 */
export class DirectBash {
	private readonly sessions = new Set<AgentSession>();

	/** Aborts every command started here; each reports `cancelled: true`. */
	abortAll(): void {
		for (const session of this.sessions) session.abortBash();
	}

	async run(
		session: AgentSession,
		request: { command: string; excludeFromContext: boolean; id?: string },
		onOutput: (delta: string) => void,
	): Promise<BashResult> {
		const { command, excludeFromContext } = request;
		const decision = await session.extensionRunner.emitUserBash({
			type: "user_bash",
			command,
			excludeFromContext,
			cwd: session.cwd,
		});
		if (decision.kind === "abort") throw new Error("Bash command rejected by a user_bash extension handler");
		if (decision.kind === "result") {
			session.recordBashResult(command, decision.result, { excludeFromContext });
			return decision.result;
		}
		this.sessions.add(session);
		try {
			return await session.executeBash(command, onOutput, {
				excludeFromContext,
				...(request.id !== undefined ? { id: request.id } : {}),
				...(decision.kind === "operations" ? { operations: decision.operations } : {}),
			});
		} finally {
			if (!session.isBashRunning) this.sessions.delete(session);
		}
	}
}
