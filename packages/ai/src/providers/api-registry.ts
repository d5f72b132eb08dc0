import type { KnownApi } from "../types/model.js";
import type { ProviderStreams } from "../types/provider.js";
import { lazyApi } from "./lazy-api.js";

/**
 * Wire adapter modules by API id. Each entry is imported with `await import()` on the first request of
 * that API, never when `@tau/ai` itself is imported, so the SDKs stay unloaded until needed. An adapter
 * registers itself with one line: `"<api>": () => import("../api/<api>/index.js"),` — the module
 * exports `stream` and `streamSimple`, which makes it a `ProviderStreams`.
 */
const API_MODULES: Partial<Record<KnownApi, () => Promise<ProviderStreams>>> = {
	"anthropic-messages": () => import("../api/anthropic-messages/index.js"),
	"openai-completions": () => import("../api/openai-completions/index.js"),
	"openai-responses": () => import("../api/openai-responses/index.js"),
};

/** The lazily loaded built-in implementation of `api`; requests fail with an error event if none exists. */
export function builtinApi(api: KnownApi): ProviderStreams {
	const load =
		API_MODULES[api] ?? (() => Promise.reject(new Error(`No adapter module is registered for API "${api}"`)));
	return lazyApi(load);
}

export function anthropicMessagesApi(): ProviderStreams {
	return builtinApi("anthropic-messages");
}

export function openAICompletionsApi(): ProviderStreams {
	return builtinApi("openai-completions");
}

export function openAIResponsesApi(): ProviderStreams {
	return builtinApi("openai-responses");
}
