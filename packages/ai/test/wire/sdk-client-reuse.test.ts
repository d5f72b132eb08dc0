import { startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/api/anthropic-messages/client.js";
import { createOpenAIClient } from "../../src/api/shared/openai-client.js";
import { cachedSdkClient } from "../../src/api/shared/sdk-client-cache.js";
import { collect, transcript, WIRE_APIS, type WireApi, wireApi, wireModel } from "./wire-harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
	await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server that accepts any key, so a test can watch which credential arrives. */
async function openServer() {
	const server = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
	closers.push(() => server.close());
	server.setFactory(() => ({ text: "ok" }));
	return server;
}

function credentialOf(api: WireApi, headers: Record<string, string>): string | undefined {
	return api === "anthropic-messages" ? headers["x-api-key"] : headers.authorization?.replace(/^Bearer /, "");
}

describe.each(WIRE_APIS)("%s reuses SDK clients without going stale", (api) => {
	it("a changed key, header, fetch or base URL is seen by the very next request", async () => {
		const server = await openServer();
		const model = wireModel(api, server);
		const send = async (options: Parameters<ReturnType<typeof wireApi>["stream"]>[2]) => {
			const { message } = await collect(wireApi(api).stream(model, transcript(), options));
			expect(message.stopReason).toBe("stop");
			return server.requests.at(-1)!.headers;
		};

		expect(credentialOf(api, await send({ apiKey: "key-a", headers: { "x-probe": "1" } }))).toBe("key-a");
		expect(credentialOf(api, await send({ apiKey: "key-a", headers: { "x-probe": "1" } }))).toBe("key-a");
		const rotated = await send({ apiKey: "key-b", headers: { "x-probe": "1" } });
		expect(credentialOf(api, rotated)).toBe("key-b");
		expect((await send({ apiKey: "key-b", headers: { "x-probe": "2" } }))["x-probe"]).toBe("2");

		const calls: string[] = [];
		const tracingFetch = (label: string): typeof fetch => {
			return (input, init) => {
				calls.push(label);
				return fetch(input, init);
			};
		};
		await send({ apiKey: "key-b", fetch: tracingFetch("first") });
		await send({ apiKey: "key-b", fetch: tracingFetch("second") });
		expect(calls).toEqual(["first", "second"]);

		const other = await openServer();
		const { message } = await collect(wireApi(api).stream(wireModel(api, other), transcript(), { apiKey: "key-b" }));
		expect(message.stopReason).toBe("stop");
		expect(other.requests).toHaveLength(1);
		expect(server.requests).toHaveLength(6);
	});
});

describe("SDK client cache", () => {
	const model = wireModel("anthropic-messages", { baseUrl: "http://127.0.0.1:9", url: () => "" } as never);

	it("hands out one client per distinct configuration", () => {
		const headers = { "x-api-key": "k" };
		const first = createAnthropicClient(model, {}, headers);
		expect(createAnthropicClient(model, {}, { "x-api-key": "k" })).toBe(first);
		expect(createAnthropicClient(model, {}, { "x-api-key": "other" })).not.toBe(first);
		expect(createAnthropicClient(model, { timeoutMs: 1234 }, headers)).not.toBe(first);
		expect(createAnthropicClient(model, { timeoutMs: 1234 }, headers).timeout).toBe(1234);
		expect(createAnthropicClient({ ...model, baseUrl: "http://127.0.0.1:10" }, {}, headers)).not.toBe(first);

		const openai = createOpenAIClient(model, { apiKey: "k" }, {});
		expect(createOpenAIClient(model, { apiKey: "k" }, {})).toBe(openai);
		expect(createOpenAIClient(model, { apiKey: "k2" }, {}).apiKey).toBe("k2");
		const customFetch: typeof fetch = (input, init) => fetch(input, init);
		expect(createOpenAIClient(model, { apiKey: "k", fetch: customFetch }, {})).not.toBe(openai);
	});

	it("the Anthropic client records no OpenTelemetry spans unless ANTHROPIC_OPEN_TELEMETRY asks for them", () => {
		const saved = process.env.ANTHROPIC_OPEN_TELEMETRY;
		try {
			delete process.env.ANTHROPIC_OPEN_TELEMETRY;
			expect(createAnthropicClient(model, {}, { "x-api-key": "otel-off" }).openTelemetry.traces.enabled).toBe(false);
			process.env.ANTHROPIC_OPEN_TELEMETRY = "true";
			expect(createAnthropicClient(model, {}, { "x-api-key": "otel-on" }).openTelemetry.traces.enabled).toBe(true);
		} finally {
			if (saved === undefined) delete process.env.ANTHROPIC_OPEN_TELEMETRY;
			else process.env.ANTHROPIC_OPEN_TELEMETRY = saved;
		}
	});

	it("keeps only a bounded number of clients, dropping the least recently used", () => {
		const key = (n: number) => ({
			kind: "bound-test",
			baseUrl: "http://127.0.0.1:9",
			credential: String(n),
			headers: {},
			timeoutMs: undefined,
			fetch: undefined,
		});
		const built: number[] = [];
		const client = (n: number) =>
			cachedSdkClient(key(n), () => {
				built.push(n);
				return { n };
			});
		const zero = client(0);
		for (let n = 1; n < 100; n++) {
			client(n);
			expect(client(0)).toBe(zero);
		}
		expect(built.filter((n) => n === 0)).toHaveLength(1);
		client(1);
		expect(built.filter((n) => n === 1)).toHaveLength(2);
	});
});
