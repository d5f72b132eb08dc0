import type {
	ChatCompletionChunk,
	ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions/completions.js";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { resolveTranscript } from "../../system-messages/replay.js";
import type { OpenAICompletionsOptions } from "../../types/api-options.js";
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
import { getCompletionsCompat, type ResolvedCompletionsCompat } from "./compat.js";
import { CompletionsChunkMapper } from "./events.js";
import { buildCompletionsPayload } from "./payload.js";

/** Identity < model.headers < session headers < options.headers (docs/design/ai-adapters.md#header-precedence). */
function completionsHeaders(
	model: Model<Api>,
	options: OpenAICompletionsOptions,
	compat: ResolvedCompletionsCompat,
): Record<string, string | null> {
	const sessionId = compat.sendSessionAffinityHeaders ? cachingSessionId(options) : undefined;
	let session: Record<string, string> | undefined;
	if (sessionId && compat.sessionAffinityFormat === "openrouter") session = { "x-session-id": sessionId };
	else if (sessionId) {
		session = { "x-client-request-id": sessionId, "x-session-affinity": sessionId, session_id: sessionId };
	}
	return mergeHeaders(getIdentityHeaders(model, options.identity), model.headers, session, options.headers);
}

/** The provider's wording plus OpenRouter's raw upstream error, when it adds one. */
function formatCompletionsError(error: unknown): string {
	const message = formatProviderError(normalizeProviderError(error));
	const raw = (error as { error?: { metadata?: { raw?: unknown } } } | null)?.error?.metadata?.raw;
	if (typeof raw !== "string" || raw.length === 0 || message.includes(raw)) return message;
	return `${message}\n${raw}`;
}

/** Streams one request through an OpenAI-compatible Chat Completions endpoint (docs/design/ai-adapters.md#openai-chat-completions). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: OpenAICompletionsOptions = {},
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "Stream ended without finish_reason",
		formatError: formatCompletionsError,
		async execute(output) {
			const compat = getCompletionsCompat(model);
			const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
			if (!hasRequestAuth(model, options, OPENAI_AUTH_HEADERS)) throw new Error(missingApiKeyMessage(model));
			const headers = completionsHeaders(model, options, compat);
			const params = buildCompletionsPayload(model, transcript, options, compat);
			const payload = await applyPayloadHook(model, options, params);
			const client = createOpenAIClient(model, options, headers);
			const mapper = new CompletionsChunkMapper(model.id, output);
			await consumeProviderStream<ChatCompletionChunk>(
				model,
				options,
				output,
				(signal) =>
					client.chat.completions
						.create(payload as unknown as ChatCompletionCreateParamsStreaming, { signal })
						.asResponse(),
				openAiSseDecoder<ChatCompletionChunk>(),
				(chunk) => mapper.handle(chunk),
			);
			// An aborted stream ends its open blocks too, so every `*_start` has its `*_end` (as in Pi).
			mapper.finish();
			if (options.signal?.aborted) return;
			const message = output.message;
			if (!mapper.sawFinishReason && !compat.supportsFinishReason) {
				message.stopReason = output.hasToolCalls() ? "toolUse" : "stop";
			}
			if (message.stopReason === "error")
				throw new Error(message.errorMessage || "Provider returned an error stop reason");
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
