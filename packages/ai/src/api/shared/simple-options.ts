import { clampThinkingLevel } from "../../thinking/levels.js";
import { resolveSamplingParams } from "../../thinking/sampling.js";
import type { ReasoningEffort } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions, StreamOptions } from "../../types/options.js";
import type { ModelThinkingLevel, ThinkingBudgets } from "../../types/thinking.js";
import type { ToolChoice } from "../../types/tools.js";
import { clampMaxTokensToContext } from "../../usage/token-estimate.js";
import { mergeHeaders } from "../../utils/headers.js";
import { hasHeader } from "./request-headers.js";

/** The message every adapter uses when a request has no usable credential. */
export function missingApiKeyMessage(model: Model<Api>): string {
	return `No API key for provider: ${model.provider}`;
}

/** True when the request carries an API key or a header that authenticates by itself. */
export function hasRequestAuth(
	model: Model<Api>,
	options: Pick<StreamOptions, "apiKey" | "headers">,
	authHeaders: readonly string[],
): boolean {
	if (options.apiKey) return true;
	return hasHeader(mergeHeaders(model.headers, options.headers), authHeaders);
}

/** A direct `streamSimple` call without any usable auth throws synchronously (docs/design/ai-adapters.md#stream-contract). */
export function assertDirectAuth(
	model: Model<Api>,
	options: Pick<StreamOptions, "apiKey" | "headers">,
	authHeaders: readonly string[],
): void {
	if (!hasRequestAuth(model, options, authHeaders)) throw new Error(missingApiKeyMessage(model));
}

/** The requested thinking level clamped to the model, or "off" when none was asked for. */
export function requestedThinkingLevel(model: Model<Api>, options: SimpleStreamOptions): ModelThinkingLevel {
	return options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
}

/**
 * The provider-neutral part of `streamSimple` (docs/design/ai-adapters.md#adapter-skeleton): every pass-through option, sampling
 * parameters resolved for the thinking level, and the output budget clamped to the context window.
 */
export function simpleBaseOptions(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions,
): StreamOptions {
	const {
		reasoning: _reasoning,
		toolChoice: _toolChoice,
		thinkingBudgets: _budgets,
		deferred: _deferred,
		...rest
	} = options;
	const base: StreamOptions = {
		...rest,
		maxTokens: clampMaxTokensToContext(model, context, options.maxTokens ?? model.maxTokens),
	};
	const sampling = resolveSamplingParams(model, requestedThinkingLevel(model, options), options.samplingParams);
	if (sampling) base.samplingParams = sampling;
	else delete base.samplingParams;
	return base;
}

/** `streamSimple` options for the effort-based OpenAI adapters: the clamped level unless it is off. */
export function simpleEffortOptions(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions,
): StreamOptions & { reasoningEffort?: ReasoningEffort; toolChoice?: ToolChoice; thinkingBudgets?: ThinkingBudgets } {
	const base: StreamOptions & {
		reasoningEffort?: ReasoningEffort;
		toolChoice?: ToolChoice;
		thinkingBudgets?: ThinkingBudgets;
	} = simpleBaseOptions(model, context, options);
	const level = requestedThinkingLevel(model, options);
	if (level !== "off") base.reasoningEffort = level;
	if (options.thinkingBudgets) base.thinkingBudgets = options.thinkingBudgets;
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	return base;
}
