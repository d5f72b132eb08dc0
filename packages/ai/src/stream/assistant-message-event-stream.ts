import type { AssistantMessageEvent } from "../types/events.js";
import type { AssistantMessage } from "../types/messages.js";
import { EventStream } from "./event-stream.js";

type TerminalErrorEvent = Extract<AssistantMessageEvent, { type: "error" }>;

/** The stream every stream function returns; stamps `durationMs` on the terminal message. */
export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
	private readonly startedAt = Date.now();
	private readonly monotonicOrigin = performance.now();

	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => (event.type === "done" ? event.message : (event as TerminalErrorEvent).error),
		);
	}

	override push(event: AssistantMessageEvent): void {
		if (!this.isDone && event.type === "done") this.stampDuration(event.message);
		if (!this.isDone && event.type === "error") this.stampDuration(event.error);
		super.push(event);
	}

	override end(result?: AssistantMessage): void {
		if (!this.isDone && result !== undefined) this.stampDuration(result);
		super.end(result);
	}

	/** A response that started before this stream (forwarded or scripted) stays untimed. */
	private stampDuration(message: AssistantMessage): void {
		if (message.durationMs !== undefined || message.timestamp < this.startedAt) return;
		message.durationMs = Math.max(0, Math.round(performance.now() - this.monotonicOrigin));
	}
}

/** A new, empty event stream; an API implementation pushes events into it and ends it with the final message. */
export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}
