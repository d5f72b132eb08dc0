import {
	type AssistantMessage,
	calculateContextTokens,
	calculateCost,
	getOverflowPatterns,
	isContextOverflow,
	isRecoverableLength,
	isRetryableAssistantError,
	retryAssistantCall,
	retryDelayMs,
	retryProviderRequest,
	type Usage,
	zeroUsage,
} from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";

function usage(fields: Partial<Usage>): Usage {
	return { ...zeroUsage(), ...fields };
}
function msg(fields: Partial<AssistantMessage>): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "p",
		model: "m",
		usage: zeroUsage(),
		stopReason: "stop",
		timestamp: 0,
		...fields,
	};
}
const err = (errorMessage: string, provider = "p") => msg({ stopReason: "error", errorMessage, provider });

afterEach(() => {
	vi.useRealTimers();
});

describe("calculateCost", () => {
	it("uses the highest tier below the request size for the whole request and bills 1h writes at 2x input", () => {
		const model = {
			cost: {
				input: 1,
				output: 2,
				cacheRead: 0.1,
				cacheWrite: 1.25,
				tiers: [
					{ inputTokensAbove: 100, input: 10, output: 20, cacheRead: 1, cacheWrite: 12.5 },
					{ inputTokensAbove: 1000, input: 100, output: 200, cacheRead: 10, cacheWrite: 125 },
				],
			},
		};
		const u = usage({ input: 500, output: 1000, cacheRead: 100, cacheWrite: 100, cacheWrite1h: 40 });
		const cost = calculateCost(model, u);
		expect(cost.input).toBeCloseTo((10 * 500) / 1e6);
		expect(cost.output).toBeCloseTo((20 * 1000) / 1e6);
		expect(cost.cacheRead).toBeCloseTo((1 * 100) / 1e6);
		expect(cost.cacheWrite).toBeCloseTo((12.5 * 60 + 10 * 2 * 40) / 1e6);
		expect(cost.total).toBeCloseTo(cost.input + cost.output + cost.cacheRead + cost.cacheWrite);
		expect(cost.totalFromProvider).toBe(false);
		expect(u.cost).toBe(cost);
		const small = calculateCost(model, usage({ input: 50 }));
		expect(small.input).toBeCloseTo(50 / 1e6);
	});

	it("calculateContextTokens prefers totalTokens", () => {
		expect(calculateContextTokens(usage({ totalTokens: 7, input: 100 }))).toBe(7);
		expect(calculateContextTokens(usage({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }))).toBe(10);
	});
});

describe("isRetryableAssistantError", () => {
	it("classifies with negative patterns first", () => {
		expect(isRetryableAssistantError(err("503 overloaded"))).toBe(true);
		expect(isRetryableAssistantError(err("429 Too Many Requests: insufficient_quota"))).toBe(false);
		expect(isRetryableAssistantError(err("request id 4290 failed validation"))).toBe(false);
		expect(isRetryableAssistantError(err("read ECONNRESET"))).toBe(true);
		expect(isRetryableAssistantError(err('{"code": "1308"} limit'))).toBe(false);
		expect(isRetryableAssistantError(err("Invalid API key"))).toBe(false);
		expect(isRetryableAssistantError(msg({ stopReason: "stop", errorMessage: "overloaded" }))).toBe(false);
		expect(isRetryableAssistantError(msg({ stopReason: "aborted", errorMessage: "timeout" }))).toBe(false);
		expect(isRetryableAssistantError(err(""))).toBe(false);
	});
});

describe("isContextOverflow", () => {
	it("recognizes provider overflow texts, but not rate limits", () => {
		expect(isContextOverflow(err("prompt is too long: 213000 tokens > 200000 maximum"))).toBe(true);
		expect(
			isContextOverflow(err("This model's maximum context length is 128000 tokens. However, you requested 130000")),
		).toBe(true);
		expect(
			isContextOverflow(
				err("The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."),
			),
		).toBe(true);
		expect(isContextOverflow(err("413 Request Entity Too Large"))).toBe(true);
		expect(isContextOverflow(err("rate limit: too many tokens"))).toBe(false);
		expect(isContextOverflow(err("Internal server error"))).toBe(false);
		expect(getOverflowPatterns().length).toBeGreaterThan(10);
	});

	it("detects the bodyless cerebras overflow only for cerebras", () => {
		expect(isContextOverflow(err("400 status code (no body)", "cerebras"))).toBe(true);
		expect(isContextOverflow(err("400 status code (no body)", "openai"))).toBe(false);
	});

	it("detects silent and length-stop overflow given a context window", () => {
		const silent = msg({ stopReason: "stop", usage: usage({ input: 900, cacheRead: 200 }) });
		expect(isContextOverflow(silent, 1000)).toBe(true);
		expect(isContextOverflow(silent)).toBe(false);
		expect(isContextOverflow(msg({ stopReason: "stop", usage: usage({ input: 1000 }) }), 1000)).toBe(false);
		expect(isContextOverflow(msg({ stopReason: "length", usage: usage({ input: 990 }) }), 1000)).toBe(true);
		expect(isContextOverflow(msg({ stopReason: "length", usage: usage({ input: 990, output: 5 }) }), 1000)).toBe(
			false,
		);
		expect(isRecoverableLength(msg({ stopReason: "length", usage: usage({ output: 10 }) }), 100)).toBe(true);
		expect(isRecoverableLength(msg({ stopReason: "length", usage: usage({ output: 100 }) }), 100)).toBe(false);
	});
});

function httpError(status: number, headers: Record<string, string> = {}) {
	return Object.assign(new Error(`${status} failure`), { status, headers: new Headers(headers) });
}

describe("retryProviderRequest", () => {
	it("makes a single attempt by default", async () => {
		const request = vi.fn().mockRejectedValue(httpError(503));
		await expect(retryProviderRequest(request)).rejects.toThrow("503 failure");
		expect(request).toHaveBeenCalledTimes(1);
	});

	it("retries retryable statuses honoring retry-after-ms and retry-after", async () => {
		vi.useFakeTimers();
		const request = vi
			.fn()
			.mockRejectedValueOnce(httpError(429, { "retry-after-ms": "1500" }))
			.mockRejectedValueOnce(httpError(500, { "retry-after": "2" }))
			.mockResolvedValueOnce("ok");
		const result = retryProviderRequest(request, { maxRetries: 3 });
		await vi.advanceTimersByTimeAsync(1499);
		expect(request).toHaveBeenCalledTimes(1);
		await vi.advanceTimersByTimeAsync(1);
		expect(request).toHaveBeenCalledTimes(2);
		await vi.advanceTimersByTimeAsync(2000);
		await expect(result).resolves.toBe("ok");
		expect(request).toHaveBeenCalledTimes(3);
	});

	it("retries 408, 409, 5xx, errors without a status, and x-should-retry true on any status", async () => {
		vi.useFakeTimers();
		const transport = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
		const forced = httpError(400, { "x-should-retry": "true", "retry-after-ms": "0" });
		for (const error of [httpError(408), httpError(409), httpError(502), transport, forced]) {
			const request = vi.fn().mockRejectedValueOnce(error).mockResolvedValueOnce("ok");
			const result = retryProviderRequest(request, { maxRetries: 1 });
			// The exponential backoff of the first retry is at most 500 ms (minus jitter).
			await vi.advanceTimersByTimeAsync(500);
			await expect(result).resolves.toBe("ok");
			expect(request).toHaveBeenCalledTimes(2);
		}
	});

	it("gives up after maxRetries retries and rethrows the last error", async () => {
		vi.useFakeTimers();
		const last = httpError(503);
		const request = vi.fn().mockRejectedValueOnce(httpError(500)).mockRejectedValueOnce(httpError(502));
		request.mockRejectedValueOnce(last);
		const result = retryProviderRequest(request, { maxRetries: 2 });
		const settled = expect(result).rejects.toBe(last);
		await vi.advanceTimersByTimeAsync(1500);
		await settled;
		expect(request).toHaveBeenCalledTimes(3);
	});

	it("stops on x-should-retry false, non-retryable statuses and noRetryStatuses", async () => {
		for (const error of [httpError(503, { "x-should-retry": "false" }), httpError(400), httpError(409)]) {
			const request = vi.fn().mockRejectedValue(error);
			await expect(retryProviderRequest(request, { maxRetries: 2, noRetryStatuses: [409] })).rejects.toBe(error);
			expect(request).toHaveBeenCalledTimes(1);
		}
	});

	it("fails fast when the server asks for more than maxRetryDelayMs", async () => {
		const request = vi.fn().mockRejectedValue(httpError(429, { "retry-after": "120" }));
		await expect(retryProviderRequest(request, { maxRetries: 2 })).rejects.toThrow(
			"Server requested 120s retry delay (max: 60s). 429 failure",
		);
	});

	it("rejects promptly when aborted during the backoff", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const request = vi.fn().mockRejectedValue(httpError(503, { "retry-after": "30" }));
		const result = retryProviderRequest(request, { maxRetries: 2, signal: controller.signal });
		const settled = expect(result).rejects.toMatchObject({ name: "AbortError", message: "Request aborted" });
		await vi.advanceTimersByTimeAsync(10);
		controller.abort();
		await settled;
		expect(request).toHaveBeenCalledTimes(1);
	});
});

describe("agent-level retry", () => {
	const policy = { enabled: true, maxRetries: 2, baseDelayMs: 1000 };

	it("computes capped, overflow-safe delays", () => {
		expect(retryDelayMs(policy, 1)).toBe(1000);
		expect(retryDelayMs(policy, 3)).toBe(4000);
		expect(retryDelayMs(policy, 5000)).toBe(60000);
		expect(retryDelayMs({ ...policy, maxAgentDelayMs: 1500 }, 3)).toBe(1500);
	});

	it("reports callbacks in order and returns the successful retry", async () => {
		vi.useFakeTimers();
		const calls: string[] = [];
		const responses = [err("503 overloaded"), msg({ stopReason: "stop" })];
		const result = retryAssistantCall(async () => responses.shift()!, policy, undefined, {
			onRetryScheduled: (attempt, max, delay, message) =>
				calls.push(`scheduled ${attempt}/${max} ${delay} ${message}`),
			onRetryAttemptStart: () => calls.push("attempt"),
			onRetryFinished: (success, attempt) => calls.push(`finished ${success} ${attempt}`),
		});
		await vi.advanceTimersByTimeAsync(1000);
		expect((await result).stopReason).toBe("stop");
		expect(calls).toEqual(["scheduled 1/2 1000 503 overloaded", "attempt", "finished true 1"]);
	});

	it("returns the last response as aborted without errorMessage when aborted during backoff", async () => {
		vi.useFakeTimers();
		const controller = new AbortController();
		const finished: boolean[] = [];
		const result = retryAssistantCall(async () => err("503 overloaded"), policy, controller.signal, {
			onRetryFinished: (success) => finished.push(success),
		});
		await vi.advanceTimersByTimeAsync(10);
		controller.abort();
		const response = await result;
		expect(response.stopReason).toBe("aborted");
		expect(response.errorMessage).toBeUndefined();
		expect(finished).toEqual([false]);
	});

	it("passes the first response through when disabled, and stops on non-retryable errors", async () => {
		const failing = err("503 overloaded");
		expect(await retryAssistantCall(async () => failing)).toBe(failing);
		const fatal = err("invalid api key");
		const produce = vi.fn(async () => fatal);
		expect(await retryAssistantCall(produce, policy)).toBe(fatal);
		expect(produce).toHaveBeenCalledTimes(1);
	});
});
