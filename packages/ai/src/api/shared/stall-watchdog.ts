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

/** What a body reader tells the watchdog around each network read. */
export interface BodyReadWatch {
	beforeRead(): void;
	afterRead(): void;
}

/**
 * Watches one streamed response: `signal` (the caller's, plus the watchdog's own) goes to the HTTP
 * request; while a body read is pending, `timeoutMs` without bytes aborts the request (releasing its
 * connection) and records `ProviderStreamStalledError`. Time tau spends between reads (hooks, a slow
 * consumer) does not count. One timer per response, re-armed per read, so a delta costs no timer.
 * No timeout (0 or absent) means no watchdog.
 */
export class StallWatchdog implements BodyReadWatch {
	private readonly controller = new AbortController();
	readonly signal: AbortSignal | undefined;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private reading = false;
	private stalled: ProviderStreamStalledError | undefined;

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

	beforeRead(): void {
		if (!this.active) return;
		this.reading = true;
		// refresh() also re-arms a timer that already fired while tau was busy between reads.
		if (this.timer) this.timer.refresh();
		else this.timer = setTimeout(() => this.quiet(), this.timeoutMs);
	}

	afterRead(): void {
		this.reading = false;
	}

	/** Throws the stall that ended the response, if one did. */
	throwIfStalled(): void {
		if (this.stalled) throw this.stalled;
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private quiet(): void {
		if (!this.reading || this.stalled) return;
		this.stalled = new ProviderStreamStalledError(this.timeoutMs as number);
		this.controller.abort(this.stalled);
	}
}
