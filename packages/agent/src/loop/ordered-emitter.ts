import type { AgentEvent, AgentEventSink } from "../types/events.js";

/**
 * Hands events to a sink strictly in order without awaiting the ones it handles synchronously: while
 * an earlier event's listeners are still busy (a returned promise), later events wait in a backlog. The
 * first failure stops delivery and is rethrown by the next `emit` and by `settled`.
 */
export class OrderedEmitter {
	private backlog: AgentEvent[] | undefined;
	/** Settles (never rejects) once the backlog is drained. */
	private idle: Promise<void> | undefined;
	private failure: { error: unknown } | undefined;

	constructor(private readonly sink: AgentEventSink) {}

	/** Delivers `event` after those before it; returns a promise while listeners are busy. */
	emit(event: AgentEvent): Promise<void> | undefined {
		if (this.failure) throw this.failure.error;
		if (this.backlog) {
			this.backlog.push(event);
			return this.idle;
		}
		const pending = this.sink(event);
		if (!pending) return undefined;
		this.backlog = [];
		this.idle = this.drain(pending);
		return this.idle;
	}

	/** Resolves when every event has been handled; rejects with the first listener failure. */
	async settled(): Promise<void> {
		if (this.idle) await this.idle;
		if (this.failure) throw this.failure.error;
	}

	private async drain(pending: Promise<void>): Promise<void> {
		const backlog = this.backlog as AgentEvent[];
		try {
			await pending;
			for (let index = 0; index < backlog.length; index++) {
				const next = this.sink(backlog[index] as AgentEvent);
				if (next) await next;
			}
		} catch (error) {
			this.failure ??= { error };
		}
		this.backlog = undefined;
		this.idle = undefined;
	}
}
