import type OpenAI from "openai";
import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from "openai/resources/responses/responses.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { resolveTranscript } from "../../system-messages/replay.js";
import type { OpenAIResponsesOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { openAiSseDecoder } from "../shared/openai-sse-events.js";
import { formatProviderError, normalizeProviderError } from "../shared/provider-error.js";
import { applyPayloadHook, consumeProviderStream } from "../shared/provider-request.js";
import { hasRequestAuth, missingApiKeyMessage } from "../shared/simple-options.js";
import { ResponsesEventMapper } from "./events.js";
import {
	buildResponsesPayload,
	getResponsesCompat,
	type ResolvedResponsesCompat,
	type ResponsesPayload,
} from "./payload.js";

/** What distinguishes a Responses-API backend (OpenAI, Azure OpenAI, the ChatGPT Codex backend). */
export interface ResponsesBackend<TOptions extends OpenAIResponsesOptions> {
	/** Prefix of HTTP error texts, e.g. "OpenAI API error". */
	errorPrefix: string;
	/** Headers that authenticate a request by themselves. */
	authHeaders: readonly string[];
	headers(model: Model<Api>, options: TOptions, compat: ResolvedResponsesCompat): Record<string, string | null>;
	/** Changes to the common request body (defaults to none). */
	payload?(payload: ResponsesPayload, model: Model<Api>, options: TOptions): ResponsesPayload;
	client(model: Model<Api>, options: TOptions, headers: Record<string, string | null>): OpenAI;
	/** A friendlier text for some failures; undefined keeps the generic one. */
	describeError?(error: unknown): string | undefined;
}

/** One streaming Responses request against `backend` (docs/design/ai-adapters.md#openai-responses). */
export function streamResponses<TOptions extends OpenAIResponsesOptions>(
	model: Model<Api>,
	context: TranscriptContext,
	options: TOptions,
	backend: ResponsesBackend<TOptions>,
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "OpenAI Responses stream ended before a terminal response event",
		formatError: (error) =>
			backend.describeError?.(error) ?? formatProviderError(normalizeProviderError(error), backend.errorPrefix),
		async execute(output) {
			const compat = getResponsesCompat(model);
			const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
			if (!hasRequestAuth(model, options, backend.authHeaders)) throw new Error(missingApiKeyMessage(model));
			const headers = backend.headers(model, options, compat);
			const common = buildResponsesPayload(model, transcript, options, compat);
			const payload = await applyPayloadHook(model, options, backend.payload?.(common, model, options) ?? common);
			const client = backend.client(model, options, headers);
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
