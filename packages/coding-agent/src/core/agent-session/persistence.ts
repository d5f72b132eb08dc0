import type { AgentMessage } from "@tau/agent";
import type { AppendableMessage, SessionEntry, SessionManager } from "../session/index.js";

const MESSAGE_ROLES = new Set(["system", "user", "assistant", "toolResult"]);

/**
 * Writes authoritative messages to the session tree and remembers which entry holds each message
 * object, so boundaries, retries and context edits can address them.
 */
export class SessionPersistence {
	private readonly entryIds = new WeakMap<object, string>();

	constructor(
		private readonly sessionManager: SessionManager,
		private readonly onEntryAppended: (entry: SessionEntry, tauOnly: boolean) => void,
	) {}

	/** `message_end`: custom messages become `custom_message` entries, LLM roles `message` entries. */
	persistMessage(message: AgentMessage): string | undefined {
		const role = (message as { role: string }).role;
		let id: string | undefined;
		if (role === "custom") {
			const custom = message as Extract<AgentMessage, { role: "custom" }>;
			id = this.sessionManager.appendCustomMessageEntry(
				custom.customType,
				custom.content,
				custom.display,
				custom.details,
			);
		} else if (MESSAGE_ROLES.has(role)) {
			id = this.sessionManager.appendMessage(message as AppendableMessage);
		}
		if (id) this.entryIds.set(message, id);
		return id;
	}

	/**
	 * Appends through `write` and announces every entry it added (entries outside message events).
	 * `tauOnly`: Pi appends these entries without an event, so only tau-event subscribers hear of them.
	 */
	appendAnnounced<T>(write: () => T, options: { tauOnly?: boolean } = {}): T {
		const before = this.sessionManager.getEntryCount();
		const result = write();
		const entries = this.sessionManager.getEntries();
		for (const entry of entries.slice(before)) this.onEntryAppended(entry, options.tauOnly === true);
		return result;
	}

	/** The entry of a message: the id map, else a branch entry holding the same object, else by projection index. */
	entryIdOf(message: AgentMessage): string | undefined {
		const known = this.entryIds.get(message);
		if (known) return known;
		const branch = this.sessionManager.getBranch();
		const same = branch.find((entry) => entry.type === "message" && entry.message === message);
		if (same) return same.id;
		const projection = this.sessionManager.buildSessionProjection();
		for (const projected of projection.entries) {
			if (projected.messages.includes(message as never)) return projected.sourceEntry.id;
		}
		return undefined;
	}
}
