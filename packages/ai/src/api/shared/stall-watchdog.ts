/**
 * The provider sent nothing for the idle timeout in the middle of a response. The wording says
 * "timed out", so the usual retry classification treats it as a transient failure (docs/ai.md).
 */
export class ProviderStreamStalledError extends Error {
	constructor(readonly timeoutMs: number) {
		super(
			`Request timed out: the provider sent no data for ${formatSeconds(timeoutMs)} in the middle of the response`,
		);
		this.name = "ProviderStreamStalledError";
	}
}

function formatSeconds(ms: number): string {
	const seconds = ms / 1000;
	return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/**
 * Watches one streamed response: `signal` (the caller's, plus the watchdog's own) goes to the HTTP
 * request, and `watch` ends the iteration with `ProviderStreamStalledError` when no event arrives
 * for `timeoutMs` at any point, aborting the request so its connection is released. No timeout (0 or
 * absent) means no watchdog.
 */
export class StallWatchdog {
	private readonly controller = new AbortController();
	readonly signal: AbortSignal | undefined;

	constructor(
		private readonly timeoutMs: number | undefined,
		callerSignal: AbortSignal | undefined,
	) {
		this.signal = !this.active
			? callerSignal
			: callerSignal
				? AbortSignal.any([callerSignal, this.controller.signal])
				: this.controller.signal;
	}

	private get active(): boolean {
		return this.timeoutMs !== undefined && this.timeoutMs > 0 && Number.isFinite(this.timeoutMs);
	}

	async *watch<T>(events: AsyncIterable<T>): AsyncGenerator<T> {
		if (!this.active) {
			yield* events;
			return;
		}
		const timeoutMs = this.timeoutMs as number;
		const iterator = events[Symbol.asyncIterator]();
		let finished = false;
		let stalled = false;
		try {
			for (;;) {
				let timer: ReturnType<typeof setTimeout> | undefined;
				const quiet = new Promise<never>((_, reject) => {
					timer = setTimeout(() => reject(new ProviderStreamStalledError(timeoutMs)), timeoutMs);
				});
				let result: IteratorResult<T>;
				try {
					// The losing read is handled by Promise.race: it rejects once the request is aborted.
					result = await Promise.race([iterator.next(), quiet]);
				} catch (error) {
					if (error instanceof ProviderStreamStalledError) {
						stalled = true;
						this.controller.abort(error);
					}
					throw error;
				} finally {
					clearTimeout(timer);
				}
				if (result.done) {
					finished = true;
					return;
				}
				yield result.value;
			}
		} finally {
			// Like `for await`: a consumer that stops early closes the stream. After a stall the
			// request is already aborted, so closing is not waited for.
			if (!finished) {
				const closing = Promise.resolve(iterator.return?.());
				if (stalled) void closing.catch(() => undefined);
				else await closing;
			}
		}
	}
}
