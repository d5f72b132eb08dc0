import { UnreadableSessionEntryError } from "./deferred-body.js";
import type { SessionManager } from "./manager.js";
import type { SessionMessage } from "./messages.js";
import { projectContextEntry, projectSessionPath } from "./projection.js";
import type { ContextEditEntry, SessionEntry } from "./types.js";

/**
 * Queries answered from the end of a branch, reading only the message bodies they must: what a
 * session needs before its first frame while the rest of a long file's bodies are still unread
 * (docs/design/session-runtime.md#opening-a-long-session). Each gives what the full projection
 * (`projection.ts`) would.
 */

/**
 * `query` of the current branch. A body it meets that does not parse ends the wait: every body left is
 * read first (`readDeferredBodies` drops that entry, as a full load skips its line) and `query` runs
 * again on the branch that leaves.
 */
export function fromBranchEnd<T>(
	manager: Pick<SessionManager, "getBranch" | "readDeferredBodies">,
	query: (branch: readonly SessionEntry[]) => T,
): T {
	try {
		return query(manager.getBranch());
	} catch (error) {
		if (!(error instanceof UnreadableSessionEntryError)) throw error;
		manager.readDeferredBodies();
		return query(manager.getBranch());
	}
}

/** Whether the branch's projection holds any message (`projection.messages.length > 0`). */
export function branchHasContext(branch: readonly SessionEntry[]): boolean {
	// Walking back, the first edit met for an entry is its latest one, and it comes after the entry.
	const edits = new Map<string, ContextEditEntry>();
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i]!;
		// The latest compaction heads the context with its summary.
		if (entry.type === "compaction") return true;
		if (entry.type === "context_edit") {
			if (!edits.has(entry.targetId)) edits.set(entry.targetId, entry);
			continue;
		}
		if (projectContextEntry(entry, edits.get(entry.id)).length > 0) return true;
	}
	return false;
}

/**
 * The projected messages of the branch's last `count` entries, which end the full projection's
 * messages; undefined when one of them is a compaction (it reorders what comes before it).
 */
export function projectBranchTail(branch: readonly SessionEntry[], count: number): SessionMessage[] | undefined {
	const tail = branch.slice(Math.max(0, branch.length - count));
	if (tail.some((entry) => entry.type === "compaction")) return undefined;
	return projectSessionPath(tail).messages;
}
