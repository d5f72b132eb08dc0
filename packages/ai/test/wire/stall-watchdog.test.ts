import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProviderStreamStalledError, StallWatchdog } from "../../src/api/shared/stall-watchdog.js";

// The wire tests (request-options.test.ts) prove a real stalled response is ended and retried; these
// pin down what counts as quiet: only the waits for bytes, never tau's own time between reads.
describe("stall watchdog", () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it("a read pending for the timeout aborts the request with the stall as the reason", () => {
		const watchdog = new StallWatchdog(1000, undefined);
		watchdog.beforeRead();
		vi.advanceTimersByTime(999);
		expect(watchdog.signal?.aborted).toBe(false);
		vi.advanceTimersByTime(1);
		expect(watchdog.signal?.aborted).toBe(true);
		expect(watchdog.signal?.reason).toBeInstanceOf(ProviderStreamStalledError);
		expect(() => watchdog.throwIfStalled()).toThrow(
			"Request timed out: the provider sent no data for 1 s in the middle of the response",
		);
	});

	it("each read gets the whole timeout again", () => {
		const watchdog = new StallWatchdog(1000, undefined);
		for (let read = 0; read < 5; read++) {
			watchdog.beforeRead();
			vi.advanceTimersByTime(900);
			watchdog.afterRead();
		}
		expect(watchdog.signal?.aborted).toBe(false);
		watchdog.stop();
	});

	it("time between reads (a slow consumer or hook) does not count, and the next read is timed afresh", () => {
		const watchdog = new StallWatchdog(1000, undefined);
		watchdog.beforeRead();
		watchdog.afterRead();
		vi.advanceTimersByTime(5000);
		expect(watchdog.signal?.aborted).toBe(false);
		watchdog.beforeRead();
		vi.advanceTimersByTime(999);
		expect(watchdog.signal?.aborted).toBe(false);
		vi.advanceTimersByTime(1);
		expect(watchdog.signal?.aborted).toBe(true);
	});

	it("no timeout means no watchdog: the caller's own signal is passed through", () => {
		const caller = new AbortController();
		const watchdog = new StallWatchdog(0, caller.signal);
		expect(watchdog.signal).toBe(caller.signal);
		watchdog.beforeRead();
		vi.advanceTimersByTime(60_000);
		expect(caller.signal.aborted).toBe(false);
		expect(() => watchdog.throwIfStalled()).not.toThrow();
	});

	it("the caller's abort still reaches the request", () => {
		const caller = new AbortController();
		const watchdog = new StallWatchdog(1000, caller.signal);
		caller.abort();
		expect(watchdog.signal?.aborted).toBe(true);
		expect(() => watchdog.throwIfStalled()).not.toThrow();
		watchdog.stop();
	});
});
