import { anthropicMessagesApi } from "../providers/lazy-apis/anthropic-messages.js";
import { azureOpenAIResponsesApi } from "../providers/lazy-apis/azure-openai-responses.js";
import { googleGenerativeAIApi } from "../providers/lazy-apis/google-generative-ai.js";
import { googleVertexApi } from "../providers/lazy-apis/google-vertex.js";
import { mistralConversationsApi } from "../providers/lazy-apis/mistral-conversations.js";
import { openAICodexResponsesApi } from "../providers/lazy-apis/openai-codex-responses.js";
import { openAICompletionsApi } from "../providers/lazy-apis/openai-completions.js";
import { openAIResponsesApi } from "../providers/lazy-apis/openai-responses.js";
import type { AnthropicOptions, OpenAICompletionsOptions, OpenAIResponsesOptions } from "../types/api-options.js";
import type { SimpleStreamOptions } from "../types/options.js";
import type { StreamFunction } from "../types/provider.js";

/*
 * pi-ai's older per-API stream functions. Each is the lazily loaded adapter itself: no key lookup, the
 * caller passes `apiKey`. New code uses `<api>Api().stream` or a `Models` collection.
 */

const anthropicMessages = anthropicMessagesApi();
const openAICompletions = openAICompletionsApi();
const openAIResponses = openAIResponsesApi();

/** pi-ai's `stream` for the `anthropic-messages` API, taking that API's own options; the caller passes `apiKey`. */
export const streamAnthropic: StreamFunction<"anthropic-messages", AnthropicOptions> = anthropicMessages.stream;
/**
 * pi-ai's `streamSimple` for the `anthropic-messages` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleAnthropic: StreamFunction<"anthropic-messages", SimpleStreamOptions> =
	anthropicMessages.streamSimple;
/** pi-ai's `stream` for the `openai-completions` API, taking that API's own options; the caller passes `apiKey`. */
export const streamOpenAICompletions: StreamFunction<"openai-completions", OpenAICompletionsOptions> =
	openAICompletions.stream;
/**
 * pi-ai's `streamSimple` for the `openai-completions` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleOpenAICompletions: StreamFunction<"openai-completions", SimpleStreamOptions> =
	openAICompletions.streamSimple;
/** pi-ai's `stream` for the `openai-responses` API, taking that API's own options; the caller passes `apiKey`. */
export const streamOpenAIResponses: StreamFunction<"openai-responses", OpenAIResponsesOptions> = openAIResponses.stream;
/**
 * pi-ai's `streamSimple` for the `openai-responses` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleOpenAIResponses: StreamFunction<"openai-responses", SimpleStreamOptions> =
	openAIResponses.streamSimple;

const azure = azureOpenAIResponsesApi();
const google = googleGenerativeAIApi();
const vertex = googleVertexApi();
const mistral = mistralConversationsApi();
const codex = openAICodexResponsesApi();

/** pi-ai's `stream` for the `azure-openai-responses` API, taking that API's own options; the caller passes `apiKey`. */
export const streamAzureOpenAIResponses = azure.stream;
/**
 * pi-ai's `streamSimple` for the `azure-openai-responses` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleAzureOpenAIResponses = azure.streamSimple;
/** pi-ai's `stream` for the `google-generative-ai` API, taking that API's own options; the caller passes `apiKey`. */
export const streamGoogle = google.stream;
/**
 * pi-ai's `streamSimple` for the `google-generative-ai` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleGoogle = google.streamSimple;
/** pi-ai's `stream` for the `google-vertex` API, taking that API's own options; the caller passes `apiKey`. */
export const streamGoogleVertex = vertex.stream;
/**
 * pi-ai's `streamSimple` for the `google-vertex` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleGoogleVertex = vertex.streamSimple;
/** pi-ai's `stream` for the `mistral-conversations` API, taking that API's own options; the caller passes `apiKey`. */
export const streamMistral = mistral.stream;
/**
 * pi-ai's `streamSimple` for the `mistral-conversations` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleMistral = mistral.streamSimple;
/** pi-ai's `stream` for the `openai-codex-responses` API, taking that API's own options; the caller passes `apiKey`. */
export const streamOpenAICodexResponses = codex.stream;
/**
 * pi-ai's `streamSimple` for the `openai-codex-responses` API: portable `SimpleStreamOptions` (a reasoning level, no
 * API-specific fields); the caller passes `apiKey`.
 */
export const streamSimpleOpenAICodexResponses = codex.streamSimple;
