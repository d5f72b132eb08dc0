import { anthropicMessagesApi } from "../providers/lazy-apis/anthropic-messages.js";
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
