import { retryProviderRequest } from "../../retry/provider-request-retry.js";
import type { Api, Model } from "../../types/model.js";
import type { StreamOptions } from "../../types/options.js";
import { ABORTED_MESSAGE } from "./adapter-stream.js";
import type { AssistantOutput } from "./assistant-output.js";
import { responseInfo } from "./request-headers.js";
import { StallWatchdog } from "./stall-watchdog.js";

/** What an SDK call resolves to with `.withResponse()`: the event stream and the raw HTTP response. */
export interface OpenedStream<TEvent> {
	data: AsyncIterable<TEvent>;
	response: Response;
}

/**
 * Sends the request through the opt-in request-level retry (each attempt a fresh SDK request), then
 * reports the response headers to `onResponse` before any body is read (ai.md §8.2, §14.1).
 */
async function openProviderStream<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	send: () => Promise<OpenedStream<TEvent>>,
): Promise<AsyncIterable<TEvent>> {
	const opened = await retryProviderRequest(send, {
		maxRetries: options.maxRetries ?? 0,
		maxRetryDelayMs: options.maxRetryDelayMs,
		signal: options.signal,
	});
	await options.onResponse?.(responseInfo(opened.response), model);
	return opened.data;
}

/** Provider events after `onProviderStreamEvent` saw each one, in order; stops at once on abort. */
async function* observeProviderEvents<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	events: AsyncIterable<TEvent>,
): AsyncGenerator<TEvent> {
	for await (const event of events) {
		await options.onProviderStreamEvent?.(event, model);
		if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
		yield event;
	}
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
 * The streaming half of every adapter: send (with retry), report the response, push `start`, then hand
 * each observed provider event to the adapter's mapper in order. `send` gets the signal to give the
 * request: the caller's, plus the stall watchdog's, so a response that goes quiet for `timeoutMs`
 * (httpIdleTimeoutMs) at any point ends this attempt with a retryable error and frees its connection.
 */
export async function consumeProviderStream<TEvent>(
	model: Model<Api>,
	options: StreamOptions,
	output: AssistantOutput,
	send: (signal: AbortSignal | undefined) => Promise<OpenedStream<TEvent>>,
	handle: (event: TEvent) => void,
): Promise<void> {
	const watchdog = new StallWatchdog(options.timeoutMs, options.signal);
	const events = await openProviderStream(model, options, () => send(watchdog.signal));
	output.start();
	for await (const event of observeProviderEvents(model, options, watchdog.watch(events))) handle(event);
}
