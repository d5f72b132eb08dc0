import type { ApiCompat } from "./compat.js";
import type { ModelThinkingLevel, ThinkingLevelMap } from "./thinking.js";

/** The API ids with built-in implementations; `Api` also accepts any other string for custom APIs. */
export type KnownApi =
	| "openai-completions"
	| "openai-responses"
	| "anthropic-messages"
	| "mistral-conversations"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "bedrock-converse-stream"
	| "google-generative-ai"
	| "google-vertex"
	| "pi-messages";

/** A wire protocol id; known literals are a convenience, any string is allowed. */
export type Api = KnownApi | (string & {});

/** The ids of the built-in providers; a provider id may also be any other string. */
export type KnownProvider =
	| "amazon-bedrock"
	| "ant-ling"
	| "anthropic"
	| "azure"
	| "baseten"
	| "cerebras"
	| "cloudflare-ai-gateway"
	| "cloudflare-workers-ai"
	| "deepseek"
	| "fireworks"
	| "github-copilot"
	| "google"
	| "google-vertex"
	| "groq"
	| "huggingface"
	| "kimi-coding"
	| "meta"
	| "minimax"
	| "minimax-cn"
	| "mistral"
	| "moonshotai"
	| "moonshotai-cn"
	| "nvidia"
	| "openai"
	| "openai-codex"
	| "opencode"
	| "opencode-go"
	| "openrouter"
	| "qwen-token-plan"
	| "qwen-token-plan-cn"
	| "qwen-token-plan-individual"
	| "qwen-token-plan-individual-cn"
	| "radius"
	| "together"
	| "typesafe"
	| "vercel-ai-gateway"
	| "xai"
	| "xiaomi"
	| "xiaomi-token-plan-ams"
	| "xiaomi-token-plan-cn"
	| "xiaomi-token-plan-sgp"
	| "zai"
	| "zai-coding-cn"
	| "ollama"
	| "llamacpp"
	| "lmstudio"
	| "vllm";

/** Who serves, bills and authenticates. */
export type ProviderId = string;
/** The API id of an image generation model. */
export type ImageApi = string;
/** The API id of a classifier model. */
export type ClassifierApi = string;

/** USD per million tokens. */
export interface ModelCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** Whole-request tiers; the one with the highest `inputTokensAbove` below the input size applies. */
	tiers?: ModelCostTier[];
}

/** Prices that apply once a request's input exceeds `inputTokensAbove` tokens (USD per million tokens). */
export interface ModelCostTier {
	inputTokensAbove: number;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** Request limits of a model: the largest request body and how many and how large images may be. */
export interface ModelInputLimits {
	maxRequestBytes?: number;
	images?: {
		resize?: { maxWidth?: number; maxHeight?: number; maxBytes?: number; jpegQuality?: number };
		maxPerMessage?: number;
		maxPerRequest?: number;
	};
}

/** The fields every model kind shares: id, name, API, provider, base URL, input kinds and cost. */
export interface BaseModel<TApi extends string> {
	/** Upstream model id, unique per (provider, type). */
	id: string;
	name: string;
	api: TApi;
	provider: ProviderId;
	/** anthropic: root without /v1; OpenAI-compatible: including /v1. */
	baseUrl: string;
	input: ("text" | "image")[];
	inputLimits?: ModelInputLimits;
	cost: ModelCost;
	headers?: Record<string, string>;
}

/**
 * A chat model: what it accepts, whether it reasons, context window, output limit, cost and the quirks of its endpoint.
 */
export interface Model<TApi extends Api = Api> extends BaseModel<TApi> {
	/** Absent means chat; compare through `getModelType`/`isModelType`, never directly. */
	type?: "chat";
	reasoning: boolean;
	thinkingLevelMap?: ThinkingLevelMap;
	/** Cache lifetimes in seconds, when known. */
	promptCache?: { short?: number; long?: number };
	contextWindow: number;
	maxTokens: number;
	samplingParams?: Record<string, unknown>;
	samplingParamsByThinkingLevel?: Partial<Record<ModelThinkingLevel, Record<string, unknown>>>;
	compat?: ApiCompat<TApi>;
}

/** An image generation model and the kinds of output it produces. */
export interface ImageModel<TApi extends string = ImageApi> extends BaseModel<TApi> {
	type: "image";
	output: ("text" | "image")[];
}

/** A classifier model: answers questions about a state instead of chatting. */
export interface ClassifierModel<TApi extends string = ClassifierApi> extends BaseModel<TApi> {
	type: "classifier";
	contextWindow: number;
	compat?: object;
}

/** A model of any kind: chat, image generation or classifier. */
export type AnyModel = Model<Api> | ImageModel<string> | ClassifierModel<string>;

/** The kinds of model: chat, image generation and classifier. */
export type ModelType = "chat" | "image" | "classifier";

/** The model type of each model kind, for `isModelType`. */
export interface ModelTypeMap {
	chat: Model<Api>;
	image: ImageModel<string>;
	classifier: ClassifierModel<string>;
}
