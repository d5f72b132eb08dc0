import type {
	AnthropicMessagesCompat,
	ModelCost,
	ModelInputLimits,
	OpenAICompletionsCompat,
	OpenAIResponsesCompat,
} from "@tau/ai";
import { Type } from "typebox";

const THINKING_LEVEL_KEYS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

const PositiveInteger = Type.Integer({ minimum: 1 });
const Headers = Type.Record(Type.String(), Type.String());
const OpenObject = Type.Record(Type.String(), Type.Unknown());

const BOOLEAN_COMPAT_FLAGS = [
	"supportsStore",
	"supportsDeveloperRole",
	"supportsReasoningEffort",
	"supportsUsageInStreaming",
	"supportsFinishReason",
	"requiresToolResultName",
	"requiresAssistantAfterToolResult",
	"requiresNonNullAssistantContent",
	"requiresToolsWithToolHistory",
	"requiresThinkingAsText",
	"requiresReasoningContentOnAssistantMessages",
	"zaiToolStream",
	"supportsThinkingTokenBudget",
	"supportsOpenAIGrammarTools",
	"supportsMidConvoSystemMessages",
	"supportsMidConvoToolAdditions",
	"supportsStrictMode",
	"sendSessionAffinityHeaders",
	"supportsLongCacheRetention",
	"supportsAdditionalTools",
	"supportsToolSearch",
	"supportsExplicitPromptCacheMode",
	"supportsMidConvoEffort",
	"supportsMaxOutputTokens",
	"supportsEagerToolInputStreaming",
	"supportsCacheControlOnTools",
	"supportsTemperature",
	"forceAdaptiveThinking",
	"allowEmptySignature",
	"supportsStrictTools",
	"supportsMidConvoToolChanges",
	"supportsMessageThreads",
	"sendImageOptInHeader",
] as const;

/** One `enum` keyword, so a wrong value yields one error listing the allowed values. */
const literals = <T extends string>(values: readonly T[]) => Type.Enum([...values]);

/** Compat is open (unknown flags allowed); known flags are type-checked. */
const Compat = Type.Object(
	{
		...Object.fromEntries(BOOLEAN_COMPAT_FLAGS.map((flag) => [flag, Type.Optional(Type.Boolean())])),
		maxTokensField: Type.Optional(literals(["max_completion_tokens", "max_tokens"])),
		thinkingFormat: Type.Optional(
			literals([
				"openai",
				"openrouter",
				"deepseek",
				"together",
				"baseten",
				"zai",
				"qwen",
				"chat-template",
				"qwen-chat-template",
				"string-thinking",
				"ant-ling",
			]),
		),
		thinkingTokenBudgetField: Type.Optional(
			literals(["thinking_token_budget", "thinking_budget", "thinking_budget_tokens"]),
		),
		chatTemplateKwargs: Type.Optional(OpenObject),
		chatTemplateArgs: Type.Optional(OpenObject),
		openRouterRouting: Type.Optional(OpenObject),
		vercelGatewayRouting: Type.Optional(OpenObject),
		cacheControlFormat: Type.Optional(Type.Literal("anthropic")),
		sessionAffinityFormat: Type.Optional(literals(["openai", "openai-nosession", "openrouter"])),
		promptCacheKeyMode: Type.Optional(literals(["auto", "enabled", "disabled"])),
		vllmPriority: Type.Optional(Type.Number()),
		allowedFallbackModels: Type.Optional(Type.Array(Type.String())),
		imageInput: Type.Optional(literals(["assets", "images", "state-image-urls"])),
	},
	{ additionalProperties: true },
);

const CostTier = Type.Object({
	inputTokensAbove: Type.Number(),
	input: Type.Number(),
	output: Type.Number(),
	cacheRead: Type.Number(),
	cacheWrite: Type.Number(),
});

const InputLimits = Type.Object({
	maxRequestBytes: Type.Optional(PositiveInteger),
	images: Type.Optional(
		Type.Object({
			resize: Type.Optional(
				Type.Object({
					maxWidth: Type.Optional(PositiveInteger),
					maxHeight: Type.Optional(PositiveInteger),
					maxBytes: Type.Optional(PositiveInteger),
					jpegQuality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
				}),
			),
			maxPerMessage: Type.Optional(PositiveInteger),
			maxPerRequest: Type.Optional(PositiveInteger),
		}),
	),
});

const ThinkingLevelMap = Type.Object(
	Object.fromEntries(
		THINKING_LEVEL_KEYS.map((level) => [level, Type.Optional(Type.Union([Type.String(), Type.Null()]))]),
	),
	{ additionalProperties: false },
);

const SamplingByLevel = Type.Object(
	Object.fromEntries(THINKING_LEVEL_KEYS.map((level) => [level, Type.Optional(OpenObject)])),
	{ additionalProperties: false },
);

/** Fields a model definition and a model override share (everything but id/api/baseUrl and the cost shape). */
const sharedModelFields = {
	name: Type.Optional(Type.String({ minLength: 1 })),
	reasoning: Type.Optional(Type.Boolean()),
	thinkingLevelMap: Type.Optional(ThinkingLevelMap),
	input: Type.Optional(Type.Array(literals(["text", "image"]))),
	inputLimits: Type.Optional(InputLimits),
	promptCache: Type.Optional(
		Type.Object({
			short: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
			long: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
		}),
	),
	contextWindow: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
	maxTokens: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
	samplingParams: Type.Optional(OpenObject),
	samplingParamsByThinkingLevel: Type.Optional(SamplingByLevel),
	headers: Type.Optional(Headers),
	compat: Type.Optional(Compat),
};

export const ModelDefinitionSchema = Type.Object({
	id: Type.String({ minLength: 1 }),
	api: Type.Optional(Type.String({ minLength: 1 })),
	baseUrl: Type.Optional(Type.String({ minLength: 1 })),
	cost: Type.Optional(
		Type.Object({
			input: Type.Number(),
			output: Type.Number(),
			cacheRead: Type.Number(),
			cacheWrite: Type.Number(),
			tiers: Type.Optional(Type.Array(CostTier)),
		}),
	),
	...sharedModelFields,
});

export const ModelOverrideSchema = Type.Object({
	cost: Type.Optional(
		Type.Object({
			input: Type.Optional(Type.Number()),
			output: Type.Optional(Type.Number()),
			cacheRead: Type.Optional(Type.Number()),
			cacheWrite: Type.Optional(Type.Number()),
			tiers: Type.Optional(Type.Array(CostTier)),
		}),
	),
	...sharedModelFields,
});

export const ProviderConfigSchema = Type.Object({
	name: Type.Optional(Type.String({ minLength: 1 })),
	baseUrl: Type.Optional(Type.String({ minLength: 1 })),
	apiKey: Type.Optional(Type.String()),
	api: Type.Optional(Type.String({ minLength: 1 })),
	oauth: Type.Optional(Type.Literal("radius")),
	headers: Type.Optional(Headers),
	compat: Type.Optional(Compat),
	authHeader: Type.Optional(Type.Boolean()),
	models: Type.Optional(Type.Array(ModelDefinitionSchema)),
	modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverrideSchema)),
});

/** The published models.json schema; unknown properties are allowed everywhere. */
export const ModelsJsonSchema = Type.Object({
	$schema: Type.Optional(Type.String()),
	providers: Type.Record(Type.String(), ProviderConfigSchema),
});

type ThinkingLevelKey = (typeof THINKING_LEVEL_KEYS)[number];

/** Open compat object: the known flags of every API plus anything newer. */
export type ModelsJsonCompat = Partial<OpenAICompletionsCompat & OpenAIResponsesCompat & AnthropicMessagesCompat> & {
	imageInput?: "assets" | "images" | "state-image-urls";
	sendImageOptInHeader?: boolean;
	[flag: string]: unknown;
};

interface SharedModelFields {
	name?: string;
	reasoning?: boolean;
	thinkingLevelMap?: Partial<Record<ThinkingLevelKey, string | null>>;
	input?: ("text" | "image")[];
	inputLimits?: ModelInputLimits;
	promptCache?: { short?: number; long?: number };
	contextWindow?: number;
	maxTokens?: number;
	samplingParams?: Record<string, unknown>;
	samplingParamsByThinkingLevel?: Partial<Record<ThinkingLevelKey, Record<string, unknown>>>;
	headers?: Record<string, string>;
	compat?: ModelsJsonCompat;
}

export interface ModelDefinition extends SharedModelFields {
	id: string;
	api?: string;
	baseUrl?: string;
	cost?: ModelCost;
}

export interface ModelOverride extends SharedModelFields {
	cost?: Partial<ModelCost>;
}

export interface ProviderConfig {
	name?: string;
	baseUrl?: string;
	apiKey?: string;
	api?: string;
	oauth?: "radius";
	headers?: Record<string, string>;
	compat?: ModelsJsonCompat;
	authHeader?: boolean;
	models?: ModelDefinition[];
	modelOverrides?: Record<string, ModelOverride>;
	[key: string]: unknown;
}

export interface ModelsJson {
	$schema?: string;
	providers: Record<string, ProviderConfig>;
	[key: string]: unknown;
}
