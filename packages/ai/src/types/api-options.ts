import type { StreamOptions } from "./options.js";
import type { ThinkingBudgets } from "./thinking.js";

/*
 * Full option sets of the three wire adapters. They live in the specification layer (no SDK types) so the
 * root entry stays free of SDK imports; SDK-specific values are typed structurally.
 */

export type ReasoningEffort = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

export interface AnthropicOptions extends StreamOptions {
	thinkingEnabled?: boolean;
	/** Budget models only; 1024 when thinking is enabled without a budget. */
	thinkingBudgetTokens?: number;
	/** Adaptive-thinking models only. */
	effort?: "low" | "medium" | "high" | "xhigh" | "max";
	/** Default "summarized" when thinking is enabled. */
	thinkingDisplay?: "summarized" | "omitted";
	/** Default true (budget models only). */
	interleavedThinking?: boolean;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	/** A pre-built `@anthropic-ai/sdk` client; skips client construction and auth checks. */
	client?: unknown;
}

export type OpenAIToolChoice =
	| "auto"
	| "none"
	| "required"
	| { type: "function"; function: { name: string } }
	| Record<string, unknown>;

export interface OpenAICompletionsOptions extends StreamOptions {
	toolChoice?: OpenAIToolChoice;
	reasoningEffort?: ReasoningEffort;
	thinkingBudgets?: ThinkingBudgets;
}

export interface OpenAIResponsesOptions extends StreamOptions {
	reasoningEffort?: ReasoningEffort;
	reasoningSummary?: "auto" | "detailed" | "concise" | null;
	serviceTier?: string;
	toolChoice?: OpenAIToolChoice;
}

export interface ApiOptionsMap {
	"anthropic-messages": AnthropicOptions;
	"openai-completions": OpenAICompletionsOptions;
	"openai-responses": OpenAIResponsesOptions;
}

/** The option type `stream` accepts for a model of `TApi`. */
export type ApiStreamOptions<TApi extends string> = TApi extends keyof ApiOptionsMap
	? ApiOptionsMap[TApi]
	: StreamOptions & Record<string, unknown>;
