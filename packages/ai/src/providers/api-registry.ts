import type { KnownApi } from "../types/model.js";
import type { ProviderStreams } from "../types/provider.js";
import { lazyApi } from "./lazy-api.js";
import { anthropicMessagesApi } from "./lazy-apis/anthropic-messages.js";
import { azureOpenAIResponsesApi } from "./lazy-apis/azure-openai-responses.js";
import { bedrockConverseStreamApi } from "./lazy-apis/bedrock-converse-stream.js";
import { googleGenerativeAIApi } from "./lazy-apis/google-generative-ai.js";
import { googleVertexApi } from "./lazy-apis/google-vertex.js";
import { mistralConversationsApi } from "./lazy-apis/mistral-conversations.js";
import { openAICodexResponsesApi } from "./lazy-apis/openai-codex-responses.js";
import { openAICompletionsApi } from "./lazy-apis/openai-completions.js";
import { openAIResponsesApi } from "./lazy-apis/openai-responses.js";
import { piMessagesApi } from "./lazy-apis/pi-messages.js";

/**
 * Lazy wire adapters by API id. Each adapter module is imported with `await import()` on the first
 * request of that API, never when `@tau/ai` itself is imported, so the SDKs stay unloaded until needed.
 * An adapter registers itself with its `lazy-apis/<api>.ts` factory here.
 */
const LAZY_APIS: Partial<Record<KnownApi, () => ProviderStreams>> = {
	"anthropic-messages": anthropicMessagesApi,
	"openai-completions": openAICompletionsApi,
	"openai-responses": openAIResponsesApi,
	"azure-openai-responses": azureOpenAIResponsesApi,
	"openai-codex-responses": openAICodexResponsesApi,
	"google-generative-ai": googleGenerativeAIApi,
	"google-vertex": googleVertexApi,
	"bedrock-converse-stream": bedrockConverseStreamApi,
	"mistral-conversations": mistralConversationsApi,
	"pi-messages": piMessagesApi,
};

/** The APIs tau implements, in registration order. */
export function builtinApiIds(): KnownApi[] {
	return Object.keys(LAZY_APIS) as KnownApi[];
}

/** The lazily loaded built-in implementation of `api`; requests fail with an error event if none exists. */
export function builtinApi(api: KnownApi): ProviderStreams {
	const factory = LAZY_APIS[api];
	if (factory) return factory();
	return lazyApi(() => Promise.reject(new Error(`No adapter module is registered for API "${api}"`)));
}

/**
 * One implementation for a provider whose models speak several APIs: each request goes to the built-in
 * adapter of its model's `api` (created on first use, so nothing loads for an API never requested).
 */
export function apiByModel(): ProviderStreams {
	const byApi = new Map<string, ProviderStreams>();
	const forApi = (api: string) => {
		let streams = byApi.get(api);
		if (!streams) {
			streams = builtinApi(api as KnownApi);
			byApi.set(api, streams);
		}
		return streams;
	};
	return {
		stream: (model, context, options) => forApi(model.api).stream(model, context, options),
		streamSimple: (model, context, options) => forApi(model.api).streamSimple(model, context, options),
	};
}
