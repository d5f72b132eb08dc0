import type { Api, Model, Usage } from "@tau/ai";
import { convertToLlm } from "../session/llm-messages.js";
import type { SessionMessage } from "../session/messages.js";
import { projectContextEntry } from "../session/projection.js";
import type { ContextEditEntry, FileListDetails, SessionEntry } from "../session/types.js";
import { estimateTokens } from "./estimation.js";
import {
	addFileLists,
	computeFileLists,
	createFileOperations,
	extractFileOperations,
	type FileOperations,
	formatFileLists,
} from "./file-operations.js";
import { BRANCH_SUMMARY_INSTRUCTIONS, BRANCH_SUMMARY_PREAMBLE, NO_BRANCH_CONTENT, withFocus } from "./prompts.js";
import { serializeConversation } from "./serialization.js";
import { completeSummarization, SummarizationAbortedError, type SummarizationOptions } from "./summarizer.js";

/** The part of the session tree a branch summary reads. */
export interface BranchSource {
	getBranch(fromId?: string): SessionEntry[];
}

export interface BranchEntries {
	entries: SessionEntry[];
	commonAncestorId: string | null;
}

/**
 * Entries on the old branch that navigating to `targetId` leaves behind: from the old leaf up to (not
 * including) the deepest entry shared with the target's path, oldest first.
 */
export function collectEntriesForBranchSummary(
	session: BranchSource,
	oldLeafId: string | null,
	targetId: string,
): BranchEntries {
	if (oldLeafId === null) return { entries: [], commonAncestorId: null };
	const oldPath = session.getBranch(oldLeafId);
	const targetIds = new Set(session.getBranch(targetId).map((entry) => entry.id));
	let ancestor = -1;
	for (let i = oldPath.length - 1; i >= 0; i--) {
		if (targetIds.has(oldPath[i]!.id)) {
			ancestor = i;
			break;
		}
	}
	return {
		entries: oldPath.slice(ancestor + 1),
		commonAncestorId: ancestor === -1 ? null : oldPath[ancestor]!.id,
	};
}

export interface PreparedBranchEntries {
	messages: SessionMessage[];
	fileOps: FileOperations;
	totalTokens: number;
}

function entryMessage(entry: SessionEntry, edit: ContextEditEntry | undefined): SessionMessage | undefined {
	if (entry.type === "message" && entry.message.role === "toolResult") return undefined;
	if (entry.type === "message" || entry.type === "custom_message") return projectContextEntry(entry, edit)[0];
	if (entry.type === "branch_summary") {
		return {
			role: "branchSummary",
			summary: entry.summary,
			fromId: entry.fromId,
			timestamp: Date.parse(entry.timestamp),
		};
	}
	if (entry.type === "compaction") {
		return {
			role: "compactionSummary",
			summary: entry.summary,
			tokensBefore: entry.tokensBefore,
			timestamp: Date.parse(entry.timestamp),
		};
	}
	return undefined;
}

/**
 * Messages for a branch summary within `tokenBudget`, newest first: earlier summaries are still admitted
 * while under 90% of the budget; tool results are skipped; context edits among the entries apply.
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget: number): PreparedBranchEntries {
	const fileOps = createFileOperations();
	const edits = new Map<string, ContextEditEntry>();
	for (const entry of entries) {
		if (entry.type === "branch_summary" && entry.fromHook !== true && entry.details)
			addFileLists(fileOps, entry.details);
		if (entry.type === "context_edit") edits.set(entry.targetId, entry);
	}
	const messages: SessionMessage[] = [];
	let totalTokens = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		const message = entryMessage(entry, edits.get(entry.id));
		if (!message) continue;
		extractFileOperations(message, fileOps);
		const tokens = estimateTokens(message);
		if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
			const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
			if (isSummary && totalTokens < 0.9 * tokenBudget) {
				messages.unshift(message);
				totalTokens += tokens;
			}
			break;
		}
		messages.unshift(message);
		totalTokens += tokens;
	}
	return { messages, fileOps, totalTokens };
}

export interface BranchSummaryOptions extends SummarizationOptions {
	/** `branchSummary.reserveTokens` (default 16384). */
	reserveTokens?: number;
	/** With `customInstructions`: use them instead of the built-in template. */
	replaceInstructions?: boolean;
}

/** The outcome of summarizing a branch: the summary with the files it touched, an abort, or an error message. */
export type BranchSummaryResult =
	| { summary: string; details: FileListDetails; usage?: Usage }
	| { aborted: true }
	| { error: string };

/** Summarizes abandoned branch entries; failures and aborts are returned, never thrown. */
export async function generateBranchSummary(
	entries: readonly SessionEntry[],
	model: Model<Api>,
	options: BranchSummaryOptions,
): Promise<BranchSummaryResult> {
	const budget = (model.contextWindow || 128000) - (options.reserveTokens ?? 16384);
	const prepared = prepareBranchEntries(entries, budget);
	const details = computeFileLists(prepared.fileOps);
	if (prepared.messages.length === 0) return { summary: NO_BRANCH_CONTENT, details };
	const instructions =
		options.customInstructions && options.replaceInstructions
			? options.customInstructions
			: withFocus(BRANCH_SUMMARY_INSTRUCTIONS, options.customInstructions);
	const conversation = serializeConversation(convertToLlm(prepared.messages));
	const prompt = `<conversation>\n${conversation}\n</conversation>\n\n${instructions}`;
	try {
		const { text, usage } = await completeSummarization(model, prompt, "Branch summarization", {
			...options,
			customInstructions: undefined,
		});
		return { summary: BRANCH_SUMMARY_PREAMBLE + text + formatFileLists(details), details, usage };
	} catch (error) {
		if (error instanceof SummarizationAbortedError) return { aborted: true };
		return { error: (error as Error).message };
	}
}
