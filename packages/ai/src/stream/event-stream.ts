import { FifoQueue } from "./fifo-queue.js";

/** What `forward` hands events to: returns a promise while it is still busy with them. */
export type EventSink<T> = (event: T) => Promise<void> | undefined | void;

/**
 * A single-consumer async event queue with a result promise. `push` never blocks (no back-pressure);
 * `result()` never rejects.
 */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private readonly queue = new FifoQueue<T>();
	private readonly waiters = new FifoQueue<(result: IteratorResult<T>) => void>();
	private finished = false;
	private resultSettled = false;
	/** Set by `forward`: receives each pushed event synchronously instead of the queue. */
	private sink: EventSink<T> | undefined;
	/** What the sink last said it is still busy with, and that promise tracked to clear itself. */
	private sinkBusy: { source: Promise<void>; tracked: Promise<void> } | undefined;
	private forwarded: { resolve: () => void; reject: (error: unknown) => void } | undefined;
	private resolveResult!: (result: R) => void;
	private readonly resultPromise: Promise<R>;

	constructor(
		private readonly isComplete: (event: T) => boolean,
		private readonly extractResult: (event: T) => R,
	) {
		this.resultPromise = new Promise<R>((resolve) => {
			this.resolveResult = resolve;
		});
	}

	/** True once a terminal event was pushed or `end()` was called. */
	protected get isDone(): boolean {
		return this.finished;
	}

	push(event: T): void {
		if (this.finished) return;
		if (this.isComplete(event)) {
			this.finished = true;
			this.settle(this.extractResult(event));
		}
		if (this.sink) {
			this.deliver(this.sink, event);
			if (this.finished) this.endForwarding();
			return;
		}
		const waiter = this.waiters.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.finished) this.wakeAll();
	}

	end(result?: R): void {
		this.finished = true;
		if (result !== undefined) this.settle(result);
		this.wakeAll();
		this.endForwarding();
	}

	/**
	 * Hands every event, queued ones first, to `sink` synchronously as it is pushed, and resolves when the
	 * stream has ended (rejects if `sink` throws; later events are then dropped). For a stream with no
	 * other consumer: a wrapper that re-emits one stream as another then pays nothing per event
	 * (docs/ai.md, "Streaming cost"). A sink returns a promise while it is still busy; producers see it
	 * through `ready()`.
	 */
	forward(sink: EventSink<T>): Promise<void> {
		const done = new Promise<void>((resolve, reject) => {
			this.forwarded = { resolve, reject };
		});
		this.sink = sink;
		while (this.forwarded && this.queue.length > 0) this.deliver(sink, this.queue.shift() as T);
		if (this.finished) this.endForwarding();
		return done;
	}

	result(): Promise<R> {
		return this.resultPromise;
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => {
				if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift() as T, done: false });
				if (this.finished) return Promise.resolve({ value: undefined, done: true });
				return new Promise<IteratorResult<T>>((resolve) => this.waiters.push(resolve));
			},
		};
	}

	/**
	 * For a producer that can wait (one reading the network): a promise while the consumer that
	 * `forward` attached is still busy with earlier events, else `undefined`. Awaiting it between reads
	 * keeps the producer at most one read ahead of the consumer.
	 */
	ready(): Promise<void> | undefined {
		return this.sinkBusy?.tracked;
	}

	private deliver(sink: EventSink<T>, event: T): void {
		try {
			const busy = sink(event);
			if (busy && busy !== this.sinkBusy?.source) this.trackBusy(busy);
		} catch (error) {
			const forwarded = this.forwarded;
			this.sink = () => {};
			this.forwarded = undefined;
			forwarded?.reject(error);
		}
	}

	private trackBusy(source: Promise<void>): void {
		const clear = () => {
			if (this.sinkBusy?.tracked === tracked) this.sinkBusy = undefined;
		};
		const tracked: Promise<void> = source.then(clear, clear);
		this.sinkBusy = { source, tracked };
	}

	private endForwarding(): void {
		const forwarded = this.forwarded;
		this.forwarded = undefined;
		forwarded?.resolve();
	}

	private settle(result: R): void {
		if (this.resultSettled) return;
		this.resultSettled = true;
		this.resolveResult(result);
	}

	/** Only reached with an empty queue: a waiter exists only while nothing is queued. */
	private wakeAll(): void {
		for (let waiter = this.waiters.shift(); waiter; waiter = this.waiters.shift()) {
			waiter({ value: undefined, done: true });
		}
	}
}
