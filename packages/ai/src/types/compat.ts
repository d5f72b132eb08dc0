/**
 * Per-API quirk flags. `provider`, `api` and `compat` are independent axes: who authenticates, which wire
 * protocol, and which quirks a particular implementation of that protocol has. All fields are optional;
 * adapters fill in detected defaults (docs/design/ai-adapters.md#compat-flags).
 */

export type SessionAffinityFormat = "openai" | "openrouter";

/**
 * How an OpenAI-compatible endpoint expects thinking to be requested and returned; each vendor spells it differently.
 */
export type OpenAICompletionsThinkingFormat =
	| "openai"
	| "openrouter"
	| "deepseek"
	| "zai"
	| "qwen"
	| "qwen-chat-template"
	| "chat-template"
	| "together"
	| "ant-ling"
	| "string-thinking";

/** A chat-template kwarg value: a literal, or a reference to the resolved thinking state. */
export type ChatTemplateKwarg =
	| string
	| number
	| boolean
	| null
	| { $var: "thinking.enabled" | "thinking.effort" | "thinking.budget"; omitWhenOff?: boolean };

/**
 * Quirks of an OpenAI-compatible chat completions endpoint that a model's `compat` field declares: supported fields,
 * roles and the thinking format.
 */
export interface OpenAICompletionsCompat {
	supportsStore?: boolean;
	supportsDeveloperRole?: boolean;
	supportsReasoningEffort?: boolean;
	supportsUsageInStreaming?: boolean;
	supportsFinishReason?: boolean;
	maxTokensField?: "max_tokens" | "max_completion_tokens";
	requiresToolResultName?: boolean;
	requiresAssistantAfterToolResult?: boolean;
	requiresNonNullAssistantContent?: boolean;
	requiresToolsWithToolHistory?: boolean;
	requiresThinkingAsText?: boolean;
	requiresReasoningContentOnAssistantMessages?: boolean;
	thinkingFormat?: OpenAICompletionsThinkingFormat;
	chatTemplateKwargs?: Record<string, ChatTemplateKwarg>;
	chatTemplateArgs?: Record<string, unknown>;
	openRouterRouting?: Record<string, unknown>;
	vercelGatewayRouting?: Record<string, unknown>;
	thinkingTokenBudgetField?: string;
	supportsThinkingTokenBudget?: boolean;
	supportsStrictMode?: boolean;
	supportsOpenAIGrammarTools?: boolean;
	supportsMidConvoSystemMessages?: boolean;
	supportsMidConvoToolAdditions?: boolean;
	zaiToolStream?: boolean;
	cacheControlFormat?: "anthropic";
	sendSessionAffinityHeaders?: boolean;
	sessionAffinityFormat?: SessionAffinityFormat;
	supportsLongCacheRetention?: boolean;
	promptCacheKeyMode?: "auto" | "enabled" | "disabled";
	vllmPriority?: number;
}

/**
 * Quirks of an OpenAI Responses endpoint that a model's `compat` field declares: roles, caching and session affinity.
 */
export interface OpenAIResponsesCompat {
	supportsDeveloperRole?: boolean;
	supportsMidConvoSystemMessages?: boolean;
	sessionAffinityFormat?: SessionAffinityFormat;
	promptCacheKeyMode?: "auto" | "enabled" | "disabled";
	supportsLongCacheRetention?: boolean;
	supportsStrictMode?: boolean;
	supportsOpenAIGrammarTools?: boolean;
	supportsAdditionalTools?: boolean;
	supportsToolSearch?: boolean;
	supportsExplicitPromptCacheMode?: boolean;
	supportsMidConvoEffort?: boolean;
	supportsMaxOutputTokens?: boolean;
	supportsReasoningEffort?: boolean;
}

/**
 * Quirks of an Anthropic-compatible endpoint that a model's `compat` field declares: streaming, caching and header
 * features it supports.
 */
export interface AnthropicMessagesCompat {
	supportsEagerToolInputStreaming?: boolean;
	supportsLongCacheRetention?: boolean;
	sendSessionAffinityHeaders?: boolean;
	sessionAffinityFormat?: SessionAffinityFormat;
	supportsCacheControlOnTools?: boolean;
	supportsTemperature?: boolean;
	forceAdaptiveThinking?: boolean;
	allowEmptySignature?: boolean;
	supportsStrictTools?: boolean;
	supportsMidConvoEffort?: boolean;
	supportsMidConvoSystemMessages?: boolean;
	supportsMidConvoToolChanges?: boolean;
	supportsMessageThreads?: boolean;
	allowedFallbackModels?: AnthropicAllowedFallbackModel[];
}

/** A model Anthropic may answer with after a server-side refusal, with its local price. */
export interface AnthropicAllowedFallbackModel {
	provider: string;
	model: string;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

/** Quirks of a Bedrock model that its `compat` field declares. */
export interface BedrockCompat {
	supportsStrictMode?: boolean;
}

/** Quirks of a Mistral model that its `compat` field declares. */
export interface MistralConversationsCompat {
	supportsMidConvoSystemMessages?: boolean;
	supportsStrictMode?: boolean;
}

/** Compat type by API id; other APIs accept any object. */
export interface ApiCompatMap {
	"openai-completions": OpenAICompletionsCompat;
	"openai-responses": OpenAIResponsesCompat;
	"anthropic-messages": AnthropicMessagesCompat;
	"azure-openai-responses": OpenAIResponsesCompat;
	"openai-codex-responses": OpenAIResponsesCompat;
	"bedrock-converse-stream": BedrockCompat;
	"mistral-conversations": MistralConversationsCompat;
}

/** The `compat` type of models of API `TApi`: the API's own compat interface, or any object for other APIs. */
export type ApiCompat<TApi extends string> = TApi extends keyof ApiCompatMap
	? ApiCompatMap[TApi]
	: OpenAICompletionsCompat | OpenAIResponsesCompat | AnthropicMessagesCompat | Record<string, unknown>;

/** The flag every adapter reads to decide between collapsing and in-place system messages (docs/design/ai-adapters.md#system-messages). */
export interface MidConvoSystemMessageCompat {
	supportsMidConvoSystemMessages?: boolean;
}
