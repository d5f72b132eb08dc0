import { sessionEntryToContextMessages } from "../session/projection.js";
import type { ProjectedSessionEntry } from "../session/types.js";
import { estimateTokens } from "./estimation.js";

export interface CutPoint {
	/** Index of the first projected entry kept verbatim. */
	firstKeptIndex: number;
	/** Start of the turn the cut falls into when it splits one, else -1. */
	turnStartIndex: number;
	isSplitTurn: boolean;
}

const CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const TURN_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function hasRole(entry: ProjectedSessionEntry, roles: Set<string>): boolean {
	return entry.sourceEntry.type !== "compaction" && entry.messages.some((message) => roles.has(message.role));
}

function entryTokens(entry: ProjectedSessionEntry): number {
	let tokens = 0;
	for (const message of entry.messages) tokens += estimateTokens(message);
	return tokens;
}

/** Produces messages when no edit applies (context edits themselves never do). */
function intrinsicallyVisible(entry: ProjectedSessionEntry): boolean {
	return entry.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(entry.sourceEntry).length > 0;
}

function omitted(entry: ProjectedSessionEntry): boolean {
	return intrinsicallyVisible(entry) && entry.messages.length === 0;
}

/**
 * When the only things after the last visible input are an omitted failed attempt and bookkeeping, the
 * input itself may be summarized while the edits hiding the failed attempt stay kept.
 */
function advancesPastOmittedAttempt(suffix: readonly ProjectedSessionEntry[]): boolean {
	const omittedIds = new Set(suffix.filter(omitted).map((entry) => entry.sourceEntry.id));
	const keepsReplacement = suffix.some(
		(entry) =>
			entry.sourceEntry.type === "context_edit" &&
			entry.sourceEntry.replacement !== null &&
			!omittedIds.has(entry.sourceEntry.targetId),
	);
	if (keepsReplacement) return false;
	const hasOmittedAssistant = suffix.some(
		(entry) =>
			omitted(entry) && entry.sourceEntry.type === "message" && entry.sourceEntry.message.role === "assistant",
	);
	return (
		hasOmittedAssistant &&
		suffix.every(
			(entry) => entry.sourceEntry.type !== "compaction" && (!intrinsicallyVisible(entry) || omitted(entry)),
		)
	);
}

/**
 * Chooses where the verbatim tail starts within `P[start, end)`: walking back from the end until
 * `keepRecentTokens` are collected, landing on an entry a tool result never is (a kept result must keep
 * its call), then absorbing adjacent metadata into the kept range.
 */
export function findProjectedCutPoint(
	entries: readonly ProjectedSessionEntry[],
	start: number,
	end: number,
	keepRecentTokens: number,
): CutPoint {
	const cutPoints: number[] = [];
	for (let i = start; i < end; i++) if (hasRole(entries[i]!, CUT_ROLES)) cutPoints.push(i);
	if (cutPoints.length === 0) return { firstKeptIndex: start, turnStartIndex: -1, isSplitTurn: false };

	let cut = cutPoints[0]!;
	let exceeded = false;
	let sum = 0;
	for (let i = end - 1; i >= start; i--) {
		const tokens = entryTokens(entries[i]!);
		if (tokens === 0) continue;
		sum += tokens;
		if (sum >= keepRecentTokens) {
			cut = cutPoints.find((point) => point >= i) ?? cutPoints[cutPoints.length - 1]!;
			exceeded = true;
			break;
		}
	}
	if (exceeded && advancesPastOmittedAttempt(entries.slice(cut + 1, end))) cut++;
	while (
		cut > start &&
		entries[cut - 1]!.sourceEntry.type !== "compaction" &&
		entries[cut - 1]!.messages.length === 0
	) {
		cut--;
	}
	const current = entries[cut];
	if (current && hasRole(current, TURN_ROLES)) return { firstKeptIndex: cut, turnStartIndex: -1, isSplitTurn: false };
	const turnStartIndex = findProjectedTurnStart(entries, Math.min(cut, end - 1), start);
	return { firstKeptIndex: cut, turnStartIndex, isSplitTurn: turnStartIndex !== -1 };
}

/** The entry at or before `from` (not before `start`) that starts a turn (a user-like message); -1 for none. */
export function findProjectedTurnStart(entries: readonly ProjectedSessionEntry[], from: number, start: number): number {
	for (let i = from; i >= start; i--) if (hasRole(entries[i]!, TURN_ROLES)) return i;
	return -1;
}
