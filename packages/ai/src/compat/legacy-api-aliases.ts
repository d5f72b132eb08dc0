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

export const streamAnthropic: StreamFunction<"anthropic-messages", AnthropicOptions> = anthropicMessages.stream;
export const streamSimpleAnthropic: StreamFunction<"anthropic-messages", SimpleStreamOptions> =
	anthropicMessages.streamSimple;
export const streamOpenAICompletions: StreamFunction<"openai-completions", OpenAICompletionsOptions> =
	openAICompletions.stream;
export const streamSimpleOpenAICompletions: StreamFunction<"openai-completions", SimpleStreamOptions> =
	openAICompletions.streamSimple;
export const streamOpenAIResponses: StreamFunction<"openai-responses", OpenAIResponsesOptions> = openAIResponses.stream;
export const streamSimpleOpenAIResponses: StreamFunction<"openai-responses", SimpleStreamOptions> =
	openAIResponses.streamSimple;

const azure = azureOpenAIResponsesApi();
const google = googleGenerativeAIApi();
const vertex = googleVertexApi();
const mistral = mistralConversationsApi();
const codex = openAICodexResponsesApi();

export const streamAzureOpenAIResponses = azure.stream;
export const streamSimpleAzureOpenAIResponses = azure.streamSimple;
export const streamGoogle = google.stream;
export const streamSimpleGoogle = google.streamSimple;
export const streamGoogleVertex = vertex.stream;
export const streamSimpleGoogleVertex = vertex.streamSimple;
export const streamMistral = mistral.stream;
export const streamSimpleMistral = mistral.streamSimple;
export const streamOpenAICodexResponses = codex.stream;
export const streamSimpleOpenAICodexResponses = codex.streamSimple;
