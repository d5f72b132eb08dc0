import { Mistral } from "@mistralai/mistralai";
import { HTTPClient } from "@mistralai/mistralai/lib/http.js";
import type { ChatCompletionStreamRequest, CompletionEvent } from "@mistralai/mistralai/models/components";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { getCurrentTools, resolveTranscript } from "../../system-messages/replay.js";
import { clampThinkingLevel } from "../../thinking/levels.js";
import type { MistralOptions } from "../../types/api-options.js";
import type { MistralConversationsCompat } from "../../types/compat.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { mergeHeaders } from "../../utils/headers.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { cachingSessionId } from "../shared/cache-retention.js";
import { normalizeProviderError, withCauseDetail } from "../shared/provider-error.js";
import { applyPayloadHook, consumeSdkStream } from "../shared/provider-request.js";
import { assertDirectAuth, hasRequestAuth, missingApiKeyMessage, simpleBaseOptions } from "../shared/simple-options.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import { MistralEventMapper } from "./events.js";
import { convertMistralMessages } from "./messages.js";

const MISTRAL_AUTH_HEADERS = ["authorization"] as const;

/** `Mistral API error (<status>): <body>`, keeping the provider's wording for retry and overflow checks. */
function formatMistralError(error: unknown): string {
	const normalized = normalizeProviderError(error);
	const status = (error as { statusCode?: unknown } | null)?.statusCode;
	const body = (error as { body?: unknown } | null)?.body;
	if (typeof status === "number") {
		const detail = typeof body === "string" && body.trim() ? body.trim().slice(0, 4000) : normalized.message;
		return `Mistral API error (${status}): ${detail}`;
	}
	return withCauseDetail(error, normalized.message);
}

function toolChoice(choice: MistralOptions["toolChoice"]): ChatCompletionStreamRequest["toolChoice"] {
	return choice as ChatCompletionStreamRequest["toolChoice"];
}

/** The chat request (the SDK's camel-case form), before `onPayload`. */
function buildMistralRequest(
	model: Model<Api>,
	context: TranscriptContext,
	options: MistralOptions,
): ChatCompletionStreamRequest {
	const compat = (model.compat ?? {}) as MistralConversationsCompat;
	const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
	const request: ChatCompletionStreamRequest = {
		model: model.id,
		stream: true,
		messages: convertMistralMessages(transcript.messages, model),
	};
	const tools = getCurrentTools(transcript.messages);
	if (tools.length > 0) {
		request.tools = tools.map((tool) => {
			const schema = resolveToolSchema(tool, compat.supportsStrictMode ?? false);
			return {
				type: "function",
				function: {
					name: tool.name,
					description: sanitizeSurrogates(tool.description),
					parameters: schema.parameters,
					strict: schema.strict ?? false,
				},
			};
		});
	}
	if (options.temperature !== undefined) request.temperature = options.temperature;
	if (options.maxTokens !== undefined) request.maxTokens = options.maxTokens;
	if (options.toolChoice) request.toolChoice = toolChoice(options.toolChoice);
	if (options.promptMode) request.promptMode = options.promptMode;
	if (options.reasoningEffort)
		request.reasoningEffort = options.reasoningEffort as ChatCompletionStreamRequest["reasoningEffort"];
	const sessionId = cachingSessionId(options);
	if (sessionId) request.promptCacheKey = sessionId;
	return request;
}

/** Identity < model.headers < options.headers; the session id routes related requests to one cache. */
function mistralHeaders(model: Model<Api>, options: MistralOptions): Record<string, string | null> {
	const sessionId = cachingSessionId(options);
	return mergeHeaders(
		getIdentityHeaders(model, options.identity),
		sessionId ? { "x-affinity": sessionId } : undefined,
		model.headers,
		options.headers,
	);
}

/** Streams one request through Mistral's chat completions API with the official SDK (SSE). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: MistralOptions = {},
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "Mistral stream ended without a finish reason",
		formatError: formatMistralError,
		async execute(output) {
			if (!hasRequestAuth(model, options, MISTRAL_AUTH_HEADERS)) throw new Error(missingApiKeyMessage(model));
			const request = await applyPayloadHook(model, options, buildMistralRequest(model, context, options));
			const headers = mistralHeaders(model, options);
			const mapper = new MistralEventMapper(output);
			await consumeSdkStream<CompletionEvent>(
				model,
				options,
				output,
				async () => {
					let response: Response | undefined;
					const baseFetch = options.fetch ?? globalThis.fetch;
					// A client per request: its fetcher captures this request's response for `onResponse`.
					const httpClient = new HTTPClient({
						fetcher: async (input, init) => {
							const request = new Request(input, init);
							for (const [name, value] of Object.entries(headers)) {
								if (value === null) request.headers.delete(name);
								else request.headers.set(name, value);
							}
							response = await baseFetch(request);
							return response;
						},
					});
					const client = new Mistral({
						...(options.apiKey ? { apiKey: options.apiKey } : {}),
						serverURL: model.baseUrl,
						httpClient,
						...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
					});
					const events = await client.chat.stream(request, {
						retries: { strategy: "none" },
						...(options.signal ? { fetchOptions: { signal: options.signal } } : {}),
					});
					return { data: events, response: response ?? { status: 200, headers: {} } };
				},
				(event) => mapper.handle(event.data),
			);
			mapper.finish();
		},
	});
}

/**
 * Provider-neutral options: models with a thinking-level map take it as `reasoningEffort`; other reasoning
 * models switch to the reasoning prompt mode.
 */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	assertDirectAuth(model, options, MISTRAL_AUTH_HEADERS);
	const base: MistralOptions = { ...simpleBaseOptions(model, context, options) };
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	const clamped = options.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
	const level = clamped === "off" ? undefined : clamped;
	const effortMap = model.reasoning ? model.thinkingLevelMap : undefined;
	if (effortMap) {
		const effort = level ? (effortMap[level] ?? "high") : (effortMap.off ?? undefined);
		if (effort) base.reasoningEffort = effort as MistralOptions["reasoningEffort"];
	} else if (model.reasoning && level) base.promptMode = "reasoning";
	return stream(model, context, base);
}
