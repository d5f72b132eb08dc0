import type { SessionManager } from "../session/index.js";
import type { SessionPersistence } from "./persistence.js";
import { repairInterruptedCalls } from "./tool-call-repair.js";
import type { SessionToolLoadout } from "./tool-loadout.js";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * What a session applies from its whole branch when it opens: the tools the branch recorded, the
 * repair of interrupted tool calls and the agent's context. Over a file opened with unread message
 * bodies this waits for `finish`, so the first frame reads only the branch's end
 * (docs/design/session-runtime.md#opening-a-long-session).
 */
export class SessionOpening {
	private pending = false;

	constructor(
		private readonly host: {
			sessionManager: SessionManager;
			loadout: SessionToolLoadout;
			tools: ToolRegistry;
			persistence: SessionPersistence;
			refreshContext(): void;
		},
	) {}

	/** At construction, after the initial tools: opens now unless bodies are still unread. */
	begin(): void {
		this.pending = this.host.sessionManager.hasDeferredBodies();
		if (!this.pending) this.openBranch();
	}

	get isPending(): boolean {
		return this.pending;
	}

	/** Reads the remaining bodies, then opens; a no-op when already open. */
	finish(): void {
		if (!this.pending) return;
		this.pending = false;
		this.host.sessionManager.readDeferredBodies();
		this.openBranch();
	}

	private openBranch(): void {
		const { sessionManager, loadout, tools, persistence } = this.host;
		loadout.restoreFromBranch();
		repairInterruptedCalls(sessionManager, (name) => tools.getTool(name), persistence);
		this.host.refreshContext();
	}
}
