import { describe, expect, it } from "vitest";
import { cachingSessionId, clampCodePoints, resolveCacheRetention } from "../../src/api/shared/cache-retention.js";
import { formatProviderError, normalizeProviderError, withCauseDetail } from "../../src/api/shared/provider-error.js";

class StatusError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly error?: unknown,
	) {
		super(message);
	}
}

describe("provider error formatting", () => {
	it("puts the body after the status when the message does not already contain it", () => {
		const error = new StatusError("400 Bad Request", 400, { message: "prompt is too long", type: "invalid" });
		expect(formatProviderError(normalizeProviderError(error))).toBe(
			'400: {"message":"prompt is too long","type":"invalid"}',
		);
		expect(formatProviderError(normalizeProviderError(error), "OpenAI API error")).toBe(
			'OpenAI API error (400): {"message":"prompt is too long","type":"invalid"}',
		);
	});

	it("keeps a message that already contains the body, prefixing the status when asked", () => {
		const body = { message: "x" };
		const error = new StatusError(`429 ${JSON.stringify(body)}`, 429, body);
		expect(formatProviderError(normalizeProviderError(error))).toBe('429 {"message":"x"}');
		expect(formatProviderError(normalizeProviderError(error), "p API error")).toBe(
			'p API error (429): 429 {"message":"x"}',
		);
	});

	it("truncates bodies beyond 4000 characters with the count of dropped characters", () => {
		const error = new StatusError("500", 500, { detail: "y".repeat(5000) });
		const text = formatProviderError(normalizeProviderError(error));
		expect(text).toMatch(/^500: \{"detail":"y+\.\.\. \[truncated 1013 chars\]$/);
	});

	it("adds the deepest cause detail, with its code, once", () => {
		const root = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
		const error = new Error("Connection error.", { cause: new TypeError("fetch failed", { cause: root }) });
		expect(withCauseDetail(error)).toBe("Connection error.: connect ECONNREFUSED 127.0.0.1:9");
		const coded = new Error("terminated", {
			cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
		});
		expect(withCauseDetail(coded)).toBe("terminated: other side closed (UND_ERR_SOCKET)");
		expect(withCauseDetail(new Error("plain"))).toBe("plain");
	});

	it("describes non-Error throws as JSON", () => {
		expect(formatProviderError(normalizeProviderError({ weird: 1 }))).toBe('{"weird":1}');
	});
});

describe("cache retention", () => {
	it("explicit option wins, then TAU_/PI_CACHE_RETENTION=long from the request env, else short", () => {
		expect(resolveCacheRetention({ cacheRetention: "none", env: { TAU_CACHE_RETENTION: "long" } })).toBe("none");
		expect(resolveCacheRetention({ env: { TAU_CACHE_RETENTION: "long" } })).toBe("long");
		expect(resolveCacheRetention({ env: { PI_CACHE_RETENTION: "long" } })).toBe("long");
		expect(resolveCacheRetention({ env: { TAU_CACHE_RETENTION: "short", PI_CACHE_RETENTION: "long" } })).toBe(
			"short",
		);
	});

	it("drops the session id when caching is off", () => {
		expect(cachingSessionId({ sessionId: "s", cacheRetention: "none" })).toBeUndefined();
		expect(cachingSessionId({ sessionId: "s" })).toBe("s");
	});

	it("clamps by code points, never splitting a surrogate pair", () => {
		expect(clampCodePoints("😀".repeat(70), 64)).toBe("😀".repeat(64));
		expect(clampCodePoints("short", 64)).toBe("short");
	});
});
