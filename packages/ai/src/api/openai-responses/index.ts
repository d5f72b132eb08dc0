import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from "openai/resources/responses/responses.js";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { resolveTranscript } from "../../system-messages/replay.js";
import type { OpenAIResponsesOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { mergeHeaders } from "../../utils/headers.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { cachingSessionId } from "../shared/cache-retention.js";
import { createOpenAIClient, OPENAI_AUTH_HEADERS } from "../shared/openai-client.js";
import { openAiSseDecoder } from "../shared/openai-sse-events.js";
import { formatProviderError, normalizeProviderError } from "../shared/provider-error.js";
import { applyPayloadHook, consumeProviderStream } from "../shared/provider-request.js";
import {
	assertDirectAuth,
	hasRequestAuth,
	missingApiKeyMessage,
	simpleEffortOptions,
} from "../shared/simple-options.js";
import { ResponsesEventMapper } from "./events.js";
import { buildResponsesPayload, getResponsesCompat, type ResolvedResponsesCompat } from "./payload.js";

/** Identity < model.headers < session headers < options.headers (ai.md §16.4). */
function responsesHeaders(
	model: Model<Api>,
	options: OpenAIResponsesOptions,
	compat: ResolvedResponsesCompat,
): Record<string, string | null> {
	const sessionId = cachingSessionId(options);
	let session: Record<string, string> | undefined;
	if (sessionId && compat.sessionAffinityFormat === "openrouter") session = { "x-session-id": sessionId };
	else if (sessionId) session = { "x-client-request-id": sessionId, "session-id": sessionId };
	return mergeHeaders(getIdentityHeaders(model, options.identity), model.headers, session, options.headers);
}

/** Streams one request through the OpenAI Responses API (ai.md §16.4). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: OpenAIResponsesOptions = {},
): AssistantMessageEventStream {
	const prefix = model.provider === "openai" ? "OpenAI API error" : `${model.provider} API error`;
	return runAdapterStream(model, options.signal, {
		pendingMessage: "OpenAI Responses stream ended before a terminal response event",
		formatError: (error) => formatProviderError(normalizeProviderError(error), prefix),
		async execute(output) {
			const compat = getResponsesCompat(model);
			const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
			if (!hasRequestAuth(model, options, OPENAI_AUTH_HEADERS)) throw new Error(missingApiKeyMessage(model));
			const headers = responsesHeaders(model, options, compat);
			const params = buildResponsesPayload(model, transcript, options, compat);
			const payload = await applyPayloadHook(model, options, params);
			const client = createOpenAIClient(model, options, headers);
			const mapper = new ResponsesEventMapper(output);
			await consumeProviderStream<ResponseStreamEvent>(
				model,
				options,
				output,
				(signal) =>
					client.responses.create(payload as unknown as ResponseCreateParamsStreaming, { signal }).asResponse(),
				openAiSseDecoder<ResponseStreamEvent>(),
				(event) => mapper.handle(event),
			);
			if (options.signal?.aborted) return;
			mapper.assertComplete();
		},
	});
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
