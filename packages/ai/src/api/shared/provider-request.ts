import { retryProviderRequest } from "../../retry/provider-request-retry.js";
import type { Api, Model } from "../../types/model.js";
import type { ProviderResponseInfo, StreamOptions } from "../../types/options.js";
import { ABORTED_MESSAGE } from "./adapter-stream.js";
import type { AssistantOutput } from "./assistant-output.js";
import { responseInfo } from "./request-headers.js";
import { linkRequestSignal } from "./request-signal.js";
import { readSseBatches, type SseMessage } from "./sse-reader.js";
import { type BodyReadWatch, StallWatchdog } from "./stall-watchdog.js";

/**
 * Turns one SSE message into the provider event the adapter maps, or `undefined` to skip it; throws
 * the SDK's own error for an in-stream error. One decoder per request (it may keep state).
 */
export type SseEventDecoder<TEvent> = (message: SseMessage, headers: Headers) => TEvent | undefined;

/**
 * What an SDK that decodes its own stream resolves to: the decoded events, and the HTTP response (or the
 * status and headers the adapter captured from it where the SDK hides it: Gemini, Bedrock, Mistral).
 */
export interface OpenedStream<TEvent> {
	data: AsyncIterable<TEvent>;
	response: Response | ProviderResponseInfo;
}

/**
 * Sends the request through the opt-in request-level retry (each attempt a fresh SDK request), then
 * reports the response headers to `onResponse` before any body is read (docs/design/ai-adapters.md#request-hooks).
 */
async function openProviderStream<TOpened>(
	model: Model<Api>,
	options: StreamOptions,
	send: () => Promise<TOpened>,
	info: (opened: TOpened) => ProviderResponseInfo,
): Promise<TOpened> {
	const opened = await retryProviderRequest(send, {
		maxRetries: options.maxRetries ?? 0,
		maxRetryDelayMs: options.maxRetryDelayMs,
		signal: options.signal,
	});
	await options.onResponse?.(info(opened), model);
	return opened;
}

/**
 * Hands one provider event to the mapper after `onProviderStreamEvent` saw it; stops at once on abort.
 * Returns a promise only when the hook did, so a delta costs none (docs/ai.md, "Streaming cost").
 */
function observeAndHandle<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	event: TEvent,
	handle: (event: TEvent) => void,
): Promise<void> | undefined {
	const observed = options.onProviderStreamEvent?.(event, model);
	if (observed) return observed.then(() => deliverEvent(options, event, handle));
	deliverEvent(options, event, handle);
	return undefined;
}

/** A plain function, not a closure per event: the hook is absent for nearly every delta. */
function deliverEvent<TEvent>(options: StreamOptions, event: TEvent, handle: (event: TEvent) => void): void {
	if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
	handle(event);
}

/** Applies `onPayload`: a non-undefined return replaces the payload. */
export async function applyPayloadHook<TPayload>(
	model: Model<Api>,
	options: StreamOptions,
	payload: TPayload,
): Promise<TPayload> {
	const replaced = await options.onPayload?.(payload, model);
	return replaced === undefined ? payload : (replaced as TPayload);
}

/**
 * The streaming half of every adapter: send through the SDK (with retry; the SDK keeps auth, headers
 * and HTTP errors), report the response, push `start`, then decode the SSE body a network read at a
 * time and hand each provider event, after `onProviderStreamEvent` saw it, to the adapter's mapper in
 * order. Only a hook that returns a promise is awaited, so a delta costs no promise (docs/ai.md,
 * "Streaming cost"). An aborted body read ends the stream quietly, as the SDKs do; the adapter then
 * reports the abort. `send` gets the signal to give the SDK: one per request, following
 * `options.signal`, so nothing stays on the caller's signal once the request ended, plus the stall
 * watchdog's, so a body that delivers no bytes for `timeoutMs` (httpIdleTimeoutMs) at any point ends
 * this attempt with a retryable error and frees its connection (docs/ai.md). After an event `isLast`
 * accepts, reading stops and the body is cancelled, for protocols whose backend may keep the
 * connection open past its final event.
 */
export async function consumeProviderStream<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	output: AssistantOutput,
	send: (signal: AbortSignal | undefined) => Promise<Response>,
	decode: SseEventDecoder<TEvent>,
	handle: (event: TEvent) => void,
	isLast?: (event: TEvent) => boolean,
): Promise<void> {
	const request = linkRequestSignal(options.signal);
	const watchdog = new StallWatchdog(options.timeoutMs, request.signal);
	try {
		await streamResponse(model, options, output, () => send(watchdog.signal), decode, handle, watchdog, isLast);
	} catch (error) {
		// The watchdog's abort may surface as the body's own error: the stall is the reason.
		watchdog.throwIfStalled();
		throw error;
	} finally {
		watchdog.stop();
		request.release();
	}
	// An aborted read ends the batches quietly: after a stall that is not the end of the answer.
	watchdog.throwIfStalled();
}

async function streamResponse<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	output: AssistantOutput,
	send: () => Promise<Response>,
	decode: SseEventDecoder<TEvent>,
	handle: (event: TEvent) => void,
	watch: BodyReadWatch,
	isLast?: (event: TEvent) => boolean,
): Promise<void> {
	const response = await openProviderStream(model, options, send, responseInfo);
	output.start();
	// Read once: \`Response.headers\` is a checked getter, and a stream has thousands of messages.
	const { headers } = response;
	for await (const batch of readSseBatches(response, watch)) {
		for (const message of batch) {
			const event = decode(message, headers);
			if (event === undefined) continue;
			const pending = observeAndHandle(model, options, event, handle);
			if (pending) await pending;
			if (isLast?.(event)) return;
		}
		// The next read waits for a busy consumer: memory stays bounded and each event is mirrored before
		// later ones change the message.
		const ready = output.ready();
		if (ready) await ready;
	}
}

/**
 * The same for an SDK that decodes its own wire format (JSON array stream, AWS event-stream): its events
 * go to the mapper one at a time, each after the consumer is ready for more.
 */
export async function consumeSdkStream<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	output: AssistantOutput,
	send: () => Promise<OpenedStream<TEvent>>,
	handle: (event: TEvent) => void,
): Promise<void> {
	const opened = await openProviderStream(model, options, send, ({ response }) =>
		response instanceof Response ? responseInfo(response) : response,
	);
	output.start();
	for await (const event of opened.data) {
		const pending = observeAndHandle(model, options, event, handle);
		if (pending) await pending;
		const ready = output.ready();
		if (ready) await ready;
	}
}
