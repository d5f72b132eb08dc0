import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { Theme } from "../../../core/resources/index.js";
import { DirectBash } from "../../rpc/direct-bash.js";
import { BashExecutionView } from "../components/bash-execution.js";

/**
 * User `!`/`!!` commands (docs/design/interactive.md#user-shell-commands). Execution and recording are shared with RPC's `bash`
 * command: extension `user_bash` handlers first, then the local shell; the result is recorded once
 * the agent is idle so a tool call and its result are never separated.
 */
export class UserShell {
	private readonly bash = new DirectBash();
	private running: BashExecutionView | undefined;

	constructor(private readonly theme: Theme) {}

	get isRunning(): boolean {
		return this.running !== undefined;
	}

	abort(): void {
		this.bash.abortAll();
	}

	/**
	 * Starts a command; `place` puts its component on screen (chat, or pending area while streaming).
	 * Resolves when the command finished.
	 */
	async run(
		session: AgentSession,
		command: string,
		excludeFromContext: boolean,
		place: (view: BashExecutionView) => void,
		requestRender: () => void,
	): Promise<void> {
		const view = new BashExecutionView(this.theme, command, excludeFromContext);
		this.running = view;
		place(view);
		try {
			const result = await this.bash.run(session, { command, excludeFromContext }, (delta) => {
				view.appendOutput(delta);
				requestRender();
			});
			view.finish(result);
		} catch (error) {
			view.fail((error as Error).message);
		} finally {
			this.running = undefined;
			requestRender();
		}
	}
}
