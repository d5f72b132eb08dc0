import { projectEntries } from "../session/projection.js";
import type { SessionEntry } from "../session/types.js";
import { findProjectedCutPoint, findProjectedTurnStart } from "./cut-point.js";

/** Where a compaction of `entries[startIndex, endIndex)` starts keeping messages verbatim. */
export interface CutPointResult {
	/** Index of the first entry kept. */
	firstKeptEntryIndex: number;
	/** Index of the entry that starts the turn being split, or -1 when the cut does not split a turn. */
	turnStartIndex: number;
	isSplitTurn: boolean;
}

/**
 * The cut point that keeps about `keepRecentTokens` of the newest context, on session entries (the
 * session's compaction uses the same rule on its projection; docs/sessions.md).
 */
export function findCutPoint(
	entries: SessionEntry[],
	startIndex: number,
	endIndex: number,
	keepRecentTokens: number,
): CutPointResult {
	const cut = findProjectedCutPoint(projectEntries(entries), startIndex, endIndex, keepRecentTokens);
	return { firstKeptEntryIndex: cut.firstKeptIndex, turnStartIndex: cut.turnStartIndex, isSplitTurn: cut.isSplitTurn };
}

/** The entry at or before `entryIndex` (not before `startIndex`) that starts its turn; -1 for none. */
export function findTurnStartIndex(entries: SessionEntry[], entryIndex: number, startIndex: number): number {
	return findProjectedTurnStart(projectEntries(entries), entryIndex, startIndex);
}
