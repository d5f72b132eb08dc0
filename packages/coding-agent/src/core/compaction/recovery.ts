import type { SessionManager } from "../session/manager.js";

/**
 * Hides a failed assistant attempt from future model context: the assistant entry and the tool results
 * answering its tool calls (up to the next assistant message) each get a `context_edit` with `null`.
 * Raw history, exports and billing keep the attempt. Returns the appended edit ids.
 */
export function omitFailedAttempt(manager: SessionManager, assistantEntryId: string): string[] {
	const branch = manager.getBranch();
	const index = branch.findIndex((entry) => entry.id === assistantEntryId);
	const failed = branch[index];
	if (failed?.type !== "message" || failed.message.role !== "assistant") {
		throw new Error(`Entry ${assistantEntryId} is not an assistant message on the active branch`);
	}
	const callIds = new Set(failed.message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : [])));
	const targets = [failed.id];
	for (const entry of branch.slice(index + 1)) {
		if (entry.type !== "message") continue;
		if (entry.message.role === "assistant") break;
		if (entry.message.role === "toolResult" && callIds.has(entry.message.toolCallId)) targets.push(entry.id);
	}
	return targets.map((target) => manager.appendContextEdit(target, null));
}
