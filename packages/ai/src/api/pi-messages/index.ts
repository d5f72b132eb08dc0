import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import type { PiMessagesEvent, PiMessagesOptions } from "../../types/pi-messages.js";
import { errorMessage } from "../../utils/error-message.js";
import { mergeHeaders, resolveHeaders } from "../../utils/headers.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { applyPayloadHook, consumeProviderStream } from "../shared/provider-request.js";
import type { SseMessage } from "../shared/sse-reader.js";
import { PiMessagesEventMapper } from "./events.js";

/**
 * The pi-messages protocol (docs/ai.md "The pi-messages API"): pi's own message format sent as is to a
 * backend, which streams assistant-message events back. The request is one POST of
 * `{ model, context, options }` to `<baseUrl>/messages`; the response is server-sent events whose data
 * are the events (`PiMessagesEvent`), ending with `done` or `error`. Radius speaks it, and any backend
 * named in models.json with `"api": "pi-messages"`.
 */

/** The retention sent to the backend: explicit, or "long" from the environment; its default otherwise. */
function cacheRetention(options: PiMessagesOptions): string | undefined {
	if (options.cacheRetention) return options.cacheRetention;
	for (const source of [options.env, process.env]) {
		for (const name of ["TAU_CACHE_RETENTION", "PI_CACHE_RETENTION"]) {
			if (source?.[name] === "long") return "long";
		}
	}
	return undefined;
}

/** `status statusText: message (code)` from the backend's `{ error: { message, code } }` body, else the body. */
async function responseError(response: Response): Promise<Error> {
	const body = await response.text();
	let detail: { message?: unknown; code?: unknown } | undefined;
	try {
		const parsed = JSON.parse(body) as { error?: unknown };
		if (parsed?.error && typeof parsed.error === "object" && !Array.isArray(parsed.error)) detail = parsed.error;
	} catch {
		// Not JSON: the body itself is the message.
	}
	const message = typeof detail?.message === "string" ? detail.message : body;
	const code = typeof detail?.code === "string" ? ` (${detail.code})` : "";
	return Object.assign(new Error(`${response.status} ${response.statusText}: ${message}${code}`), {
		status: response.status,
		headers: response.headers,
	});
}

/** The event a `data:` payload carries; `[DONE]` and data-less messages carry none. */
function decodeEvent(message: SseMessage): PiMessagesEvent | undefined {
	return message.data && message.data !== "[DONE]" ? (JSON.parse(message.data) as PiMessagesEvent) : undefined;
}

/**
 * Streams an answer from a `pi-messages` backend: posts the model, context and options, and relays the events it sends
 * back.
 */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: PiMessagesOptions = {},
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: `${model.provider} stream ended without a terminal event`,
		formatError: (error) => errorMessage(error),
		async execute(output) {
			if (!options.apiKey) throw new Error(`No API key provided for provider "${model.provider}"`);
			const url = new URL(`${model.baseUrl.replace(/\/+$/u, "")}/messages`);
			if (options.debug) url.searchParams.set("debug", "1");
			const requestOptions = {
				temperature: options.temperature,
				maxTokens: options.maxTokens,
				reasoning: options.reasoning,
				cacheRetention: cacheRetention(options),
				sessionId: options.sessionId,
				toolChoice: options.toolChoice,
			};
			const payload = await applyPayloadHook(model, options, { model: model.id, context, options: requestOptions });
			const headers = mergeHeaders(
				getIdentityHeaders(model, options.identity),
				{
					authorization: `Bearer ${options.apiKey}`,
					accept: "text/event-stream",
					"content-type": "application/json",
				},
				options.headers,
			);
			const mapper = new PiMessagesEventMapper(output);
			await consumeProviderStream<PiMessagesEvent>(
				model,
				options,
				output,
				async (signal) => {
					const response = await (options.fetch ?? fetch)(url, {
						method: "POST",
						headers: resolveHeaders(headers),
						body: JSON.stringify(payload),
						...(signal ? { signal } : {}),
					});
					if (!response.ok) throw await responseError(response);
					if (!response.body) throw new Error(`${model.provider} response has no body`);
					return response;
				},
				decodeEvent,
				(event) => mapper.handle(event),
				// The response is complete: stop reading (and release the connection) even if the backend keeps it open.
				(event) => event.type === "done" || event.type === "error",
			);
		},
	});
}

/** `stream` with the portable options; a `pi-messages` backend takes them as they are. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	return stream(model, context, options);
}
