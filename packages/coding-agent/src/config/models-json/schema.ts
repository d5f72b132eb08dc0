import type {
	AnthropicMessagesCompat,
	ModelCost,
	ModelInputLimits,
	OpenAICompletionsCompat,
	OpenAIResponsesCompat,
} from "@tau/ai";
import type { JsonSchemaNode } from "./schema-check.js";

const THINKING_LEVEL_KEYS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

// Plain JSON Schema built by a few local helpers (the shapes TypeBox would produce): a valid file is
// checked without loading a schema library at startup; `parse.ts` loads one only to explain errors.
interface OptionalProperty {
	optional: JsonSchemaNode;
}
const Optional = (schema: JsonSchemaNode): OptionalProperty => ({ optional: schema });
const isOptional = (value: JsonSchemaNode | OptionalProperty): value is OptionalProperty => "optional" in value;

/** Properties wrapped in `Optional` are left out of `required`. */
function object(
	properties: Record<string, JsonSchemaNode | OptionalProperty>,
	options: Pick<JsonSchemaNode, "additionalProperties"> = {},
): JsonSchemaNode {
	const required = Object.keys(properties).filter((key) => !isOptional(properties[key]!));
	const plain = Object.fromEntries(
		Object.entries(properties).map(([key, value]) => [key, isOptional(value) ? value.optional : value]),
	);
	return { type: "object", ...(required.length > 0 ? { required } : {}), properties: plain, ...options };
}
const string = (options: Pick<JsonSchemaNode, "minLength"> = {}): JsonSchemaNode => ({ type: "string", ...options });
const number = (options: Pick<JsonSchemaNode, "exclusiveMinimum"> = {}): JsonSchemaNode => ({
	type: "number",
	...options,
});
const integer = (options: Pick<JsonSchemaNode, "minimum" | "maximum">): JsonSchemaNode => ({
	type: "integer",
	...options,
});
const boolean = (): JsonSchemaNode => ({ type: "boolean" });
const array = (items: JsonSchemaNode): JsonSchemaNode => ({ type: "array", items });
const record = (value: JsonSchemaNode): JsonSchemaNode => ({ type: "object", patternProperties: { "^.*$": value } });
const literal = (value: string): JsonSchemaNode => ({ type: "string", const: value });

const PositiveInteger = integer({ minimum: 1 });
const Headers = record(string());
const OpenObject = record({});

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
const literals = (values: readonly string[]): JsonSchemaNode => ({ enum: [...values] });

/** Compat is open (unknown flags allowed); known flags are type-checked. */
const Compat = object(
	{
		...Object.fromEntries(BOOLEAN_COMPAT_FLAGS.map((flag) => [flag, Optional(boolean())])),
		maxTokensField: Optional(literals(["max_completion_tokens", "max_tokens"])),
		thinkingFormat: Optional(
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
		thinkingTokenBudgetField: Optional(
			literals(["thinking_token_budget", "thinking_budget", "thinking_budget_tokens"]),
		),
		chatTemplateKwargs: Optional(OpenObject),
		chatTemplateArgs: Optional(OpenObject),
		openRouterRouting: Optional(OpenObject),
		vercelGatewayRouting: Optional(OpenObject),
		cacheControlFormat: Optional(literal("anthropic")),
		sessionAffinityFormat: Optional(literals(["openai", "openai-nosession", "openrouter"])),
		promptCacheKeyMode: Optional(literals(["auto", "enabled", "disabled"])),
		vllmPriority: Optional(number()),
		allowedFallbackModels: Optional(array(string())),
		imageInput: Optional(literals(["assets", "images", "state-image-urls"])),
	},
	{ additionalProperties: true },
);

const CostTier = object({
	inputTokensAbove: number(),
	input: number(),
	output: number(),
	cacheRead: number(),
	cacheWrite: number(),
});

const InputLimits = object({
	maxRequestBytes: Optional(PositiveInteger),
	images: Optional(
		object({
			resize: Optional(
				object({
					maxWidth: Optional(PositiveInteger),
					maxHeight: Optional(PositiveInteger),
					maxBytes: Optional(PositiveInteger),
					jpegQuality: Optional(integer({ minimum: 1, maximum: 100 })),
				}),
			),
			maxPerMessage: Optional(PositiveInteger),
			maxPerRequest: Optional(PositiveInteger),
		}),
	),
});

const ThinkingLevelMap = object(
	Object.fromEntries(THINKING_LEVEL_KEYS.map((level) => [level, Optional({ anyOf: [string(), { type: "null" }] })])),
	{ additionalProperties: false },
);

const SamplingByLevel = object(Object.fromEntries(THINKING_LEVEL_KEYS.map((level) => [level, Optional(OpenObject)])), {
	additionalProperties: false,
});

/** Fields a model definition and a model override share (everything but id/api/baseUrl and the cost shape). */
const sharedModelFields = {
	name: Optional(string({ minLength: 1 })),
	reasoning: Optional(boolean()),
	thinkingLevelMap: Optional(ThinkingLevelMap),
	input: Optional(array(literals(["text", "image"]))),
	inputLimits: Optional(InputLimits),
	promptCache: Optional(
		object({
			short: Optional(number({ exclusiveMinimum: 0 })),
			long: Optional(number({ exclusiveMinimum: 0 })),
		}),
	),
	contextWindow: Optional(number({ exclusiveMinimum: 0 })),
	maxTokens: Optional(number({ exclusiveMinimum: 0 })),
	samplingParams: Optional(OpenObject),
	samplingParamsByThinkingLevel: Optional(SamplingByLevel),
	headers: Optional(Headers),
	compat: Optional(Compat),
};

export const ModelDefinitionSchema = object({
	id: string({ minLength: 1 }),
	api: Optional(string({ minLength: 1 })),
	baseUrl: Optional(string({ minLength: 1 })),
	cost: Optional(
		object({
			input: number(),
			output: number(),
			cacheRead: number(),
			cacheWrite: number(),
			tiers: Optional(array(CostTier)),
		}),
	),
	...sharedModelFields,
});

export const ModelOverrideSchema = object({
	cost: Optional(
		object({
			input: Optional(number()),
			output: Optional(number()),
			cacheRead: Optional(number()),
			cacheWrite: Optional(number()),
			tiers: Optional(array(CostTier)),
		}),
	),
	...sharedModelFields,
});

export const ProviderConfigSchema = object({
	name: Optional(string({ minLength: 1 })),
	baseUrl: Optional(string({ minLength: 1 })),
	apiKey: Optional(string()),
	api: Optional(string({ minLength: 1 })),
	oauth: Optional(literal("radius")),
	headers: Optional(Headers),
	compat: Optional(Compat),
	authHeader: Optional(boolean()),
	models: Optional(array(ModelDefinitionSchema)),
	modelOverrides: Optional(record(ModelOverrideSchema)),
});

/** The published models.json schema; unknown properties are allowed everywhere. */
export const ModelsJsonSchema = object({
	$schema: Optional(string()),
	providers: record(ProviderConfigSchema),
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

/**
 * A provider entry of `models.json`: base URL, API, API key, headers and compatibility flags, plus the models it
 * adds or overrides.
 */
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
