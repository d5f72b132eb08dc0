import type { KnownApi } from "../types/model.js";
import type { ProviderStreams } from "../types/provider.js";
import { lazyApi } from "./lazy-api.js";
import { anthropicMessagesApi } from "./lazy-apis/anthropic-messages.js";
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
