import type { AssistantMessageEvent } from "../types/events.js";
import type { AssistantMessage } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";
import { AssistantMessageEventStream } from "./assistant-message-event-stream.js";
import { EventStream } from "./event-stream.js";
import { errorEvent, failedAssistantMessage } from "./failure.js";

/** Sees the events and final message of a lazily started stream, e.g. to record them. */
export interface LazyStreamObserver {
	onEvent?(event: AssistantMessageEvent): void;
	onResult?(message: AssistantMessage | undefined): void;
}

type EventSource = AsyncIterable<AssistantMessageEvent> & { result?(): Promise<AssistantMessage> };

/**
 * Returns a stream synchronously and runs asynchronous preparation behind it; a preparation failure
 * becomes a single `error` event, so callers never see setup exceptions.
 */
export function lazyStream(
	model: Model<Api>,
	setup: () => Promise<AsyncIterable<AssistantMessageEvent>>,
	observer?: LazyStreamObserver,
	signal?: AbortSignal,
): AssistantMessageEventStream {
	const outer = new AssistantMessageEventStream();
	const startedAt = Date.now();
	const run = async (): Promise<void> => {
		let source: EventSource;
		try {
			source = await setup();
		} catch (error) {
			const failed = failedAssistantMessage(model, error, signal, startedAt);
			outer.push(errorEvent(failed));
			outer.end(failed);
			observer?.onResult?.(failed);
			return;
		}
		let last: AssistantMessage | undefined;
		const relay = (event: AssistantMessageEvent) => {
			if (event.type === "done") last = event.message;
			if (event.type === "error") last = event.error;
			observer?.onEvent?.(event);
			outer.push(event);
			return outer.ready();
		};
		try {
			// tau's own streams are relayed synchronously; any other async iterable is iterated.
			if (source instanceof EventStream) await source.forward(relay);
			else for await (const event of source) relay(event);
			if (typeof source.result === "function") last = await source.result();
			if (last === undefined) throw new Error("Stream ended without a terminal event");
		} catch (error) {
			// A misbehaving inner source must still end the outer stream with a terminal event.
			const failed = failedAssistantMessage(model, error, signal, startedAt);
			outer.push(errorEvent(failed));
			last = failed;
		}
		outer.end(last);
		observer?.onResult?.(last);
	};
	void run();
	return outer;
}
