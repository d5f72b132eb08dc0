import type { StreamOptions } from "./options.js";
import type { ThinkingBudgets, ThinkingLevel } from "./thinking.js";

/*
 * Full option sets of the wire adapters. They live in the specification layer (no SDK types) so the
 * root entry stays free of SDK imports; SDK-specific values are typed structurally.
 */

/** How hard an OpenAI-style model should reason. */
export type ReasoningEffort = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * Options of the `anthropic-messages` API: thinking (budget or adaptive effort), tool choice and Anthropic-specific
 * request fields.
 */
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

/** The `tool_choice` of OpenAI APIs: automatic, none, required, one named function, or a raw value. */
export type OpenAIToolChoice =
	| "auto"
	| "none"
	| "required"
	| { type: "function"; function: { name: string } }
	| Record<string, unknown>;

/** Options of the `openai-completions` API: tool choice, reasoning effort and thinking budgets. */
export interface OpenAICompletionsOptions extends StreamOptions {
	toolChoice?: OpenAIToolChoice;
	reasoningEffort?: ReasoningEffort;
	thinkingBudgets?: ThinkingBudgets;
}

/** Options of the `openai-responses` API: reasoning effort and summary, service tier and tool choice. */
export interface OpenAIResponsesOptions extends StreamOptions {
	reasoningEffort?: ReasoningEffort;
	reasoningSummary?: "auto" | "detailed" | "concise" | null;
	serviceTier?: string;
	toolChoice?: OpenAIToolChoice;
}

/** Azure models ship without an endpoint: one resource per user, resolved per request (docs/providers.md). */
export interface AzureEndpointOptions extends StreamOptions {
	/** Default `AZURE_OPENAI_API_VERSION`, else "v1". */
	azureApiVersion?: string;
	/** `https://<name>.openai.azure.com/openai/v1`; default `AZURE_OPENAI_RESOURCE_NAME`. */
	azureResourceName?: string;
	/** Wins over the resource name; default `AZURE_OPENAI_BASE_URL`. */
	azureBaseUrl?: string;
	/** Default: `AZURE_OPENAI_DEPLOYMENT_NAME_MAP` (`model=deployment,…`), else the model id. */
	azureDeploymentName?: string;
}

/** Options of the `azure-openai-responses` API: the Azure endpoint, reasoning effort and summary, and tool choice. */
export interface AzureOpenAIResponsesOptions extends AzureEndpointOptions {
	reasoningEffort?: ReasoningEffort;
	reasoningSummary?: "auto" | "detailed" | "concise" | null;
	toolChoice?: OpenAIToolChoice;
}

/**
 * Options of the `openai-codex-responses` API (ChatGPT sign-in): reasoning effort and summary, service tier, verbosity
 * and tool choice.
 */
export interface OpenAICodexResponsesOptions extends StreamOptions {
	reasoningEffort?: "none" | ReasoningEffort;
	reasoningSummary?: "auto" | "concise" | "detailed" | "off" | "on" | null;
	serviceTier?: string;
	textVerbosity?: "low" | "medium" | "high";
	toolChoice?: "auto" | "none" | "required";
}

/** Gemini's discrete thinking levels (Gemini 3 and later). */
export type GoogleApiThinkingLevel = "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

/** Options of the `google-generative-ai` API: tool choice and thinking (budget or level). */
export interface GoogleOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any";
	thinking?: { enabled: boolean; budgetTokens?: number; level?: GoogleApiThinkingLevel };
}

/** Options of the `google-vertex` API: the Gemini options plus the Google Cloud project and location. */
export interface GoogleVertexOptions extends GoogleOptions {
	/** Default `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`). */
	project?: string;
	/** Default `GOOGLE_CLOUD_LOCATION`. */
	location?: string;
}

/** Options of the `bedrock-converse-stream` API: AWS region and profile, tool choice and reasoning. */
export interface BedrockOptions extends StreamOptions {
	/** Default `AWS_REGION`, `AWS_DEFAULT_REGION`, the model's endpoint region, then us-east-1. */
	region?: string;
	/** A named profile of the shared AWS config; default `AWS_PROFILE`. */
	profile?: string;
	toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
	reasoning?: ThinkingLevel;
	thinkingBudgets?: ThinkingBudgets;
	/** Default true (Claude budget models). */
	interleavedThinking?: boolean;
	/** Claude models: default "summarized". */
	thinkingDisplay?: "summarized" | "omitted";
	/** Cost-allocation tags attached to the request. */
	requestMetadata?: Record<string, string>;
	/** Bedrock API key (`Authorization: Bearer`) instead of SigV4; default `AWS_BEARER_TOKEN_BEDROCK`. */
	bearerToken?: string;
}

/** Options of the `mistral-conversations` API: tool choice, reasoning prompt mode and effort. */
export interface MistralOptions extends StreamOptions {
	toolChoice?: "auto" | "none" | "any" | "required" | { type: "function"; function: { name: string } };
	/** Magistral-style reasoning models. */
	promptMode?: "reasoning";
	reasoningEffort?: "none" | "low" | "medium" | "high" | "max";
}

/** The request options type of each built-in API id, so `stream` is typed by the model's API. */
export interface ApiOptionsMap {
	"anthropic-messages": AnthropicOptions;
	"openai-completions": OpenAICompletionsOptions;
	"openai-responses": OpenAIResponsesOptions;
	"azure-openai-responses": AzureOpenAIResponsesOptions;
	"openai-codex-responses": OpenAICodexResponsesOptions;
	"google-generative-ai": GoogleOptions;
	"google-vertex": GoogleVertexOptions;
	"bedrock-converse-stream": BedrockOptions;
	"mistral-conversations": MistralOptions;
}

/** The option type `stream` accepts for a model of `TApi`. */
export type ApiStreamOptions<TApi extends string> = TApi extends keyof ApiOptionsMap
	? ApiOptionsMap[TApi]
	: StreamOptions & Record<string, unknown>;
