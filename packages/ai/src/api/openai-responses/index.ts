import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { OpenAIResponsesOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { createOpenAIClient, OPENAI_AUTH_HEADERS } from "../shared/openai-client.js";
import { assertDirectAuth, simpleEffortOptions } from "../shared/simple-options.js";
import { responsesHeaders } from "./headers.js";
import { type ResponsesBackend, streamResponses } from "./run.js";

function openAIBackend(model: Model<Api>): ResponsesBackend<OpenAIResponsesOptions> {
	return {
		errorPrefix: model.provider === "openai" ? "OpenAI API error" : `${model.provider} API error`,
		authHeaders: OPENAI_AUTH_HEADERS,
		headers: responsesHeaders,
		client: createOpenAIClient,
	};
}

/** Streams one request through the OpenAI Responses API (docs/design/ai-adapters.md#openai-responses). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: OpenAIResponsesOptions = {},
): AssistantMessageEventStream {
	return streamResponses(model, context, options, openAIBackend(model));
}

/** Provider-neutral options: the clamped thinking level becomes `reasoningEffort` unless it is off. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	assertDirectAuth(model, options, OPENAI_AUTH_HEADERS);
	return stream(model, context, simpleEffortOptions(model, context, options));
}
