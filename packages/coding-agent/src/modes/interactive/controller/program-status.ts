import type { ProgramStatus } from "@tau/tui";
import type { AgentSessionEvent } from "../../../core/agent-session/events.js";

type Resting = { state: "idle" | "done" | "error"; message?: string };

/**
 * Maps session events to the terminal's program status (docs/design/interactive.md#program-status): blocked dialogs win over
 * compaction, compaction over an active run, a run over the resting state. Reports are de-duplicated.
 */
export class ProgramStatusReporter {
	private runActive = false;
	private runResult: Resting = { state: "done" };
	private resting: Resting = { state: "idle" };
	private compacting = false;
	private readonly blocked: { kind: "question" | "permission" | "auth"; title: string; id: number }[] = [];
	private nextBlockId = 0;
	private last: string | undefined;

	constructor(
		private readonly report: (status: ProgramStatus) => void,
		private readonly sessionName: () => string | undefined,
		private readonly app = "tau",
	) {
		this.publish();
	}

	handle(event: AgentSessionEvent): void {
		switch (event.type) {
			case "agent_start":
				this.runActive = true;
				this.runResult = { state: "done" };
				break;
			case "message_end":
				if (event.message.role !== "assistant") return;
				this.runResult =
					event.message.stopReason === "error"
						? { state: "error", message: (event.message.errorMessage ?? "Error").split("\n")[0]! }
						: { state: "done" };
				break;
			case "compaction_start":
				this.compacting = true;
				break;
			case "compaction_end":
				this.compacting = false;
				// A recovery compaction that fails or is aborted decides how the run ends.
				if (this.runActive && !event.result) {
					this.runResult = event.aborted
						? { state: "idle" }
						: { state: "error", message: (event.errorMessage ?? "Error").split("\n")[0]! };
				}
				if (!this.runActive && event.reason === "manual") {
					this.resting = event.result ? { state: "done" } : { state: event.aborted ? "idle" : "error" };
				}
				break;
			case "agent_settled":
				this.runActive = false;
				this.resting = event.aborted ? { state: "idle" } : this.runResult;
				break;
			default:
				return;
		}
		this.publish();
	}

	/** A dialog waits for the user; the returned function ends the blocked state. */
	block(kind: "question" | "permission" | "auth", title: string): () => void {
		const id = this.nextBlockId++;
		this.blocked.push({ kind, title, id });
		this.publish();
		return () => {
			const index = this.blocked.findIndex((entry) => entry.id === id);
			if (index >= 0) this.blocked.splice(index, 1);
			this.publish();
		};
	}

	private current(): ProgramStatus {
		const blocked = this.blocked[this.blocked.length - 1];
		if (blocked) return { state: "blocked", app: this.app, kind: blocked.kind, message: blocked.title };
		if (this.compacting) return { state: "working", app: this.app, message: "Compacting context" };
		const name = this.sessionName();
		if (this.runActive) return { state: "working", app: this.app, ...(name ? { message: name } : {}) };
		if (this.resting.state === "done") return { state: "done", app: this.app, ...(name ? { message: name } : {}) };
		return {
			state: this.resting.state,
			app: this.app,
			...(this.resting.message ? { message: this.resting.message } : {}),
		};
	}

	private publish(): void {
		const status = this.current();
		const key = JSON.stringify(status);
		if (key === this.last) return;
		this.last = key;
		this.report(status);
	}
}
