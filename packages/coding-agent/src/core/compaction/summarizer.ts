import {
	type Api,
	type AssistantMessage,
	addUsage,
	type Context,
	type Model,
	type RetryCallbacks,
	type RetryPolicy,
	retryAssistantCall,
	type SimpleStreamOptions,
	type ThinkingLevel,
	type Usage,
} from "@tau/ai";
import { createSessionId } from "../session/ids.js";
import { convertToLlm } from "../session/llm-messages.js";
import { contentText, type SessionMessage } from "../session/messages.js";
import type { FileListDetails } from "../session/types.js";
import { computeFileLists, formatFileLists } from "./file-operations.js";
import type { CompactionPreparation } from "./preparation.js";
import {
	INITIAL_SUMMARY_INSTRUCTIONS,
	NO_PRIOR_HISTORY,
	SUMMARIZATION_SYSTEM_PROMPT,
	TURN_PREFIX_INSTRUCTIONS,
	UPDATE_SUMMARY_INSTRUCTIONS,
	withFocus,
} from "./prompts.js";
import { serializeConversation } from "./serialization.js";

/** The one LLM call summarizers make; `Models.completeSimple` fits (tests pass the faux provider's). */
export type SummaryCompletion = (
	model: Model<Api>,
	context: Context,
	options?: SimpleStreamOptions,
) => Promise<AssistantMessage>;

export interface SummarizationOptions {
	complete: SummaryCompletion;
	/** Session thinking level; reasoning is requested only when the model supports it and it is not `off`. */
	thinkingLevel?: string;
	/** Routing session id; a fresh one per summary by default. */
	sessionId?: string;
	customInstructions?: string;
	signal?: AbortSignal;
	/** The agent retry policy (`retry.*` settings): transient failures are retried with backoff. */
	retry?: RetryPolicy;
	/** Progress of retries, surfaced as `summarization_retry_*` events by the session. */
	retryCallbacks?: RetryCallbacks;
}

/**
 * What a compaction produces: the summary, the first entry kept verbatim, the token count before, and details such
 * as the files touched.
 */
export interface CompactionResult {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	/** Estimated tokens of the context after the compaction (set by the session, not the summarizer). */
	estimatedTokensAfter?: number;
	usage?: Usage;
	details: FileListDetails;
}

export type SummaryLabel = "Summarization" | "Turn prefix summarization" | "Branch summarization";

/** Why a summary response must not be persisted, or undefined when it is usable. */
export function getSummarizationFailure(response: AssistantMessage, label: SummaryLabel): string | undefined {
	if (response.stopReason === "error") return `${label} failed: ${response.errorMessage || "Unknown error"}`;
	if (response.stopReason === "length") {
		return `${label} failed: generation hit the token cap and the summary is incomplete`;
	}
	if (response.content.some((block) => block.type === "toolCall")) return `${label} attempted to call a tool`;
	return undefined;
}

/** Thrown when the summary request was aborted; callers report it as cancelled, not as a failure. */
export class SummarizationAbortedError extends Error {
	constructor(label: SummaryLabel) {
		super(`${label} aborted`);
		this.name = "AbortError";
	}
}

/** Output budget: the model's limit, clamped so input and output fit the window with a safety margin. */
export function summaryMaxTokens(
	model: Pick<Model<Api>, "contextWindow" | "maxTokens">,
	estimatedInput: number,
): number {
	if (model.contextWindow <= 0) return model.maxTokens;
	const margin = Math.max(4096, Math.ceil(0.15 * estimatedInput));
	let room = model.contextWindow - estimatedInput - margin;
	if (room < 32768) room = Math.min(32768, model.contextWindow - estimatedInput - 4096);
	return Math.min(model.maxTokens, Math.max(1, room));
}

/** Sends one summarization prompt and returns its text; rejected responses throw their failure message. */
export async function completeSummarization(
	model: Model<Api>,
	prompt: string,
	label: SummaryLabel,
	options: SummarizationOptions,
): Promise<{ text: string; usage: Usage }> {
	const estimatedInput = Math.ceil((SUMMARIZATION_SYSTEM_PROMPT.length + prompt.length) / 4);
	const requestOptions: SimpleStreamOptions = {
		cacheRetention: "none",
		sessionId: options.sessionId ?? createSessionId(),
		maxTokens: summaryMaxTokens(model, estimatedInput),
	};
	if (options.signal) requestOptions.signal = options.signal;
	if (model.reasoning && options.thinkingLevel && options.thinkingLevel !== "off") {
		requestOptions.reasoning = options.thinkingLevel as ThinkingLevel;
	}
	const context: Context = {
		systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
		messages: [{ role: "user", content: [{ type: "text", text: prompt }], timestamp: Date.now() }],
	};
	const response = await retryAssistantCall(
		() => options.complete(model, context, requestOptions),
		options.retry,
		options.signal,
		options.retryCallbacks,
	);
	if (response.stopReason === "aborted" || options.signal?.aborted) throw new SummarizationAbortedError(label);
	const failure = getSummarizationFailure(response, label);
	if (failure) throw new Error(failure);
	return { text: contentText(response.content, "\n"), usage: response.usage };
}

/** The user prompt of a history summary (update mode when there is a previous summary). */
export function buildHistoryPrompt(
	messages: readonly SessionMessage[],
	previousSummary: string | undefined,
	customInstructions?: string,
): string {
	let prompt = `<conversation>\n${serializeConversation(convertToLlm(messages))}\n</conversation>\n\n`;
	if (previousSummary !== undefined) prompt += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
	const instructions = previousSummary !== undefined ? UPDATE_SUMMARY_INSTRUCTIONS : INITIAL_SUMMARY_INSTRUCTIONS;
	return withFocus(prompt + instructions, customInstructions);
}

export function buildTurnPrefixPrompt(messages: readonly SessionMessage[], customInstructions?: string): string {
	const conversation = serializeConversation(convertToLlm(messages));
	return withFocus(
		`# Conversation\n${conversation}\n\n# Instructions\n${TURN_PREFIX_INSTRUCTIONS}`,
		customInstructions,
	);
}

/**
 * Generates the compaction summary for a preparation. A split turn gets two calls (history and turn
 * prefix) joined under a `Turn Context` heading; their usage is summed. Nothing is persisted here.
 */
export async function compact(
	preparation: CompactionPreparation,
	model: Model<Api>,
	options: SummarizationOptions,
): Promise<CompactionResult> {
	const { messagesToSummarize, turnPrefixMessages, previousSummary } = preparation;
	let summary: string;
	let usage: Usage | undefined;
	if (preparation.isSplitTurn && turnPrefixMessages.length > 0) {
		let history = previousSummary ?? NO_PRIOR_HISTORY;
		if (messagesToSummarize.length > 0) {
			const result = await completeSummarization(
				model,
				buildHistoryPrompt(messagesToSummarize, previousSummary, options.customInstructions),
				"Summarization",
				options,
			);
			history = result.text;
			usage = result.usage;
		}
		const prefix = await completeSummarization(
			model,
			buildTurnPrefixPrompt(turnPrefixMessages, options.customInstructions),
			"Turn prefix summarization",
			options,
		);
		usage = usage ? addUsage(usage, prefix.usage) : prefix.usage;
		summary = `${history}\n\n---\n\n**Turn Context (split turn):**\n\n${prefix.text}`;
	} else {
		const result = await completeSummarization(
			model,
			buildHistoryPrompt(messagesToSummarize, previousSummary, options.customInstructions),
			"Summarization",
			options,
		);
		summary = result.text;
		usage = result.usage;
	}
	const details = computeFileLists(preparation.fileOps);
	const result: CompactionResult = {
		summary: summary + formatFileLists(details),
		firstKeptEntryId: preparation.firstKeptEntryId,
		tokensBefore: preparation.tokensBefore,
		details,
	};
	if (usage) result.usage = usage;
	return result;
}
