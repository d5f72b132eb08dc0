import type { CompactionSettings } from "../../config/settings/index.js";
import type { SessionMessage } from "../session/messages.js";
import { buildSessionProjection } from "../session/projection.js";
import type { CompactionEntry, ProjectedSessionEntry, SessionEntry } from "../session/types.js";
import { findProjectedCutPoint } from "./cut-point.js";
import { estimateProjectedContextTokens } from "./estimation.js";
import { addFileLists, createFileOperations, extractFileOperations, type FileOperations } from "./file-operations.js";

export interface CompactionPreparation {
	firstKeptEntryId: string;
	messagesToSummarize: SessionMessage[];
	turnPrefixMessages: SessionMessage[];
	isSplitTurn: boolean;
	tokensBefore: number;
	previousSummary?: string;
	fileOps: FileOperations;
	settings: CompactionSettings;
}

function summarizable(entries: readonly ProjectedSessionEntry[]): SessionMessage[] {
	return entries
		.filter((entry) => entry.sourceEntry.type !== "compaction")
		.flatMap((entry) => entry.messages)
		.filter((message) => message.role !== "system");
}

/**
 * What a compaction of the active branch (`pathEntries`, root first) would summarize and keep, or
 * undefined when there is nothing to do. Entries that survived the previous compaction are summarized
 * again, with its summary as the starting point.
 */
export function prepareCompaction(
	pathEntries: readonly SessionEntry[],
	settings: CompactionSettings,
): CompactionPreparation | undefined {
	if (pathEntries.length === 0 || pathEntries[pathEntries.length - 1]!.type === "compaction") return undefined;
	const projection = buildSessionProjection(pathEntries);
	const projected = projection.entries;
	const previousIndex = projected.findIndex(
		(entry) => entry.sourceEntry.type === "compaction" && entry.messages.length > 0,
	);
	const previous = previousIndex === -1 ? undefined : (projected[previousIndex]!.sourceEntry as CompactionEntry);
	const boundaryStart = previousIndex + 1;
	const tokensBefore = estimateProjectedContextTokens(projection, pathEntries).tokens;
	const cut = findProjectedCutPoint(projected, boundaryStart, projected.length, settings.keepRecentTokens);
	const kept = projected[cut.firstKeptIndex];
	if (!kept?.sourceEntry.id) return undefined;
	const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptIndex;
	const messagesToSummarize = summarizable(projected.slice(boundaryStart, historyEnd));
	const turnPrefixMessages = cut.isSplitTurn
		? summarizable(projected.slice(cut.turnStartIndex, cut.firstKeptIndex))
		: [];
	if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

	const fileOps = createFileOperations();
	if (previous && previous.fromHook !== true) addFileLists(fileOps, previous.details);
	for (const message of [...messagesToSummarize, ...turnPrefixMessages]) extractFileOperations(message, fileOps);
	const preparation: CompactionPreparation = {
		firstKeptEntryId: kept.sourceEntry.id,
		messagesToSummarize,
		turnPrefixMessages,
		isSplitTurn: cut.isSplitTurn,
		tokensBefore,
		fileOps,
		settings,
	};
	if (previous) preparation.previousSummary = previous.summary;
	return preparation;
}
