import type { Api, Model, RetryPolicy } from "@tau/ai";
import type { SettingsManager } from "../../config/index.js";
import { collectEntriesForBranchSummary, generateBranchSummary, type SummaryCompletion } from "../compaction/index.js";
import type { ExtensionRunner, SessionBeforeTreeResult, TreePreparation } from "../extensions/index.js";
import {
	type BranchSummaryEntry,
	type NavigationSummary,
	navigateSessionTree,
	type SessionManager,
} from "../session/index.js";
import type { AgentSessionEvent } from "./events.js";

export interface NavigateTreeOptions {
	summarize?: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

export interface NavigateTreeResult {
	editorText?: string;
	cancelled: boolean;
	aborted?: boolean;
	summaryEntry?: BranchSummaryEntry;
}

export interface NavigationHost {
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	model(): Model<Api> | undefined;
	thinkingLevel(): string;
	complete: SummaryCompletion;
	runner(): ExtensionRunner;
	emit(event: AgentSessionEvent): void;
	retryPolicy(): RetryPolicy;
	/** Called after the leaf moved: re-project, restore the branch's tool loadout. */
	afterMove(): void;
}

/**
 * `/tree`: `session_before_tree` (cancel, summary, instruction and label overrides), an optional
 * built-in branch summary of the abandoned entries, the leaf move, then `session_tree`.
 * The caller guards against running while streaming or compacting.
 */
export async function navigateTree(
	host: NavigationHost,
	targetId: string,
	options: NavigateTreeOptions,
	signal: AbortSignal,
): Promise<NavigateTreeResult> {
	const { sessionManager } = host;
	if (options.summarize && !host.model())
		throw new Error("No model selected. Select a model to summarize the branch.");
	if (!sessionManager.getEntry(targetId)) throw new Error(`Entry ${targetId} not found`);
	const oldLeafId = sessionManager.getLeafId();
	if (targetId === oldLeafId) return { cancelled: false };
	const collected = collectEntriesForBranchSummary(sessionManager, oldLeafId, targetId);
	const preparation: TreePreparation = {
		targetId,
		oldLeafId,
		commonAncestorId: collected.commonAncestorId,
		entriesToSummarize: collected.entries,
		userWantsSummary: options.summarize === true,
	};
	if (options.customInstructions !== undefined) preparation.customInstructions = options.customInstructions;
	if (options.replaceInstructions !== undefined) preparation.replaceInstructions = options.replaceInstructions;
	if (options.label !== undefined) preparation.label = options.label;

	const runner = host.runner();
	let outcome: SessionBeforeTreeResult | undefined;
	if (runner.hasHandlers("session_before_tree")) {
		outcome = (await runner.emit({ type: "session_before_tree", preparation, signal })) as
			| SessionBeforeTreeResult
			| undefined;
		if (outcome?.cancel) return { cancelled: true };
	}
	const label = outcome?.label ?? options.label;
	let summary: NavigationSummary | undefined;
	let fromExtension = false;
	if (options.summarize && outcome?.summary) {
		summary = { ...outcome.summary, fromHook: true };
		fromExtension = true;
	} else if (options.summarize && collected.entries.length > 0) {
		const model = host.model() as Model<Api>;
		const instructions = outcome?.customInstructions ?? options.customInstructions;
		const result = await generateBranchSummary(collected.entries, model, {
			complete: host.complete,
			thinkingLevel: host.thinkingLevel(),
			signal,
			retry: host.retryPolicy(),
			reserveTokens: host.settingsManager.getBranchSummarySettings().reserveTokens,
			...(instructions !== undefined ? { customInstructions: instructions } : {}),
			...((outcome?.replaceInstructions ?? options.replaceInstructions) !== undefined
				? { replaceInstructions: outcome?.replaceInstructions ?? options.replaceInstructions }
				: {}),
			retryCallbacks: {
				onRetryScheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
					host.emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
				onRetryAttemptStart: () =>
					host.emit({ type: "summarization_retry_attempt_start", source: "branchSummary" }),
				onRetryFinished: () => host.emit({ type: "summarization_retry_finished" }),
			},
		});
		if ("aborted" in result) return { cancelled: true, aborted: true };
		if ("error" in result) throw new Error(result.error);
		summary = { summary: result.summary, details: result.details, ...(result.usage ? { usage: result.usage } : {}) };
	}
	const moved = navigateSessionTree(sessionManager, targetId, {
		...(summary ? { summary } : {}),
		...(label ? { label } : {}),
	});
	host.afterMove();
	const summaryEntry = moved.summaryEntryId
		? (sessionManager.getEntry(moved.summaryEntryId) as BranchSummaryEntry)
		: undefined;
	await runner.emit({
		type: "session_tree",
		newLeafId: sessionManager.getLeafId(),
		oldLeafId,
		...(summaryEntry ? { summaryEntry, fromExtension } : {}),
	});
	const result: NavigateTreeResult = { cancelled: false };
	if (moved.editorText !== undefined) result.editorText = moved.editorText;
	if (summaryEntry) result.summaryEntry = summaryEntry;
	return result;
}
