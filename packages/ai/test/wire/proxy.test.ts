import { installProxyDispatcher } from "@tau/ai";
import { type ProxyServer, startProxyServer } from "@tau/testkit";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	ALL_WIRE_APIS,
	collect,
	loadWireAdapters,
	mockServer,
	texts,
	transcript,
	type WireApi,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

/** Where Node's `fetch` (and undici) keep the process-wide dispatcher. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");
const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"];

let proxy: ProxyServer;
let dispatcherBefore: unknown;

beforeAll(async () => {
	// Node sets up its default dispatcher on the first `fetch`; each test puts that one back.
	await fetch("data:,ready");
	dispatcherBefore = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER];
	await loadWireAdapters(ALL_WIRE_APIS);
}, ADAPTER_LOAD_TIMEOUT_MS);

beforeEach(async () => {
	// Whatever the machine sets, each test starts without a proxy.
	for (const name of PROXY_VARIABLES) vi.stubEnv(name, "");
	proxy = await startProxyServer();
});

afterEach(async () => {
	vi.unstubAllEnvs();
	(globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER] = dispatcherBefore;
	await proxy.close();
});

/** Sets proxy variables as a user's shell would and lets tau route by them, as the CLI does at start. */
async function useProxyEnv(variables: Record<string, string>): Promise<void> {
	for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
	await installProxyDispatcher();
}

/** Streams one reply of `api` from a fresh mock server; returns the reply and the server's `host:port`. */
async function roundTrip(api: WireApi, extra: Record<string, unknown> = {}) {
	const server = await mockServer(api);
	server.enqueue({ text: "through the wire" });
	const { message } = await collect(
		wireApi(api).stream(wireModel(api, server), transcript(), { ...wireAuth(api), ...extra }),
	);
	return { message, target: new URL(server.baseUrl).host, requests: server.requests.length };
}

describe.each(ALL_WIRE_APIS)("%s behind an HTTP proxy", (api) => {
	it("sends its request through the CONNECT tunnel of the proxy that http_proxy names", async () => {
		await useProxyEnv({ http_proxy: proxy.url });
		const { message, target, requests } = await roundTrip(api);
		expect(message.errorMessage).toBeUndefined();
		expect(texts(message)).toBe("through the wire");
		expect(requests).toBe(1);
		expect(proxy.connects.length).toBeGreaterThan(0);
		expect(new Set(proxy.connects)).toEqual(new Set([target]));
		expect(proxy.forwards).toEqual([]);
	});

	it("goes direct to a host that NO_PROXY lists", async () => {
		await useProxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost, 127.0.0.1" });
		const { message } = await roundTrip(api);
		expect(texts(message)).toBe("through the wire");
		expect(proxy.connects).toEqual([]);
	});
});

describe("requests behind a proxy", () => {
	it("control: without a proxy variable nothing is installed and nothing goes through the proxy", async () => {
		expect(await installProxyDispatcher()).toBe(false);
		const { message } = await roundTrip("anthropic-messages");
		expect(texts(message)).toBe("through the wire");
		expect(proxy.connects).toEqual([]);
	});

	it("control: a proxy that does not answer fails the request, so the tunnel is really taken", async () => {
		const closed = await startProxyServer();
		await closed.close();
		await useProxyEnv({ HTTP_PROXY: closed.url });
		const { message } = await roundTrip("openai-completions", { maxRetries: 0 });
		expect(message.stopReason).toBe("error");
	});

	it.each(["openai-responses", "bedrock-converse-stream"] as const)(
		"%s signs in to a proxy with the credentials in its URL",
		async (api) => {
			const guarded = await startProxyServer({ credentials: "corp user:s3cret" });
			try {
				const url = new URL(guarded.url);
				url.username = "corp%20user";
				url.password = "s3cret";
				await useProxyEnv({ HTTP_PROXY: url.href });
				const { message, target } = await roundTrip(api);
				expect(texts(message)).toBe("through the wire");
				expect(guarded.connects).toContain(target);
			} finally {
				await guarded.close();
			}
		},
	);

	it("control: a proxy that wants credentials refuses a request without them", async () => {
		const guarded = await startProxyServer({ credentials: "corp:s3cret" });
		try {
			await useProxyEnv({ HTTP_PROXY: guarded.url });
			const { message } = await roundTrip("openai-responses", { maxRetries: 0 });
			expect(message.stopReason).toBe("error");
			expect(guarded.connects).toEqual([]);
		} finally {
			await guarded.close();
		}
	});

	it("Bedrock takes the proxy named in the request's own env", async () => {
		const server = await mockServer("bedrock-converse-stream");
		server.enqueue({ text: "scoped" });
		const auth = wireAuth("bedrock-converse-stream");
		const env = { ...auth.env, HTTP_PROXY: proxy.url };
		const model = wireModel("bedrock-converse-stream", server);
		const { message } = await collect(wireApi("bedrock-converse-stream").stream(model, transcript(), { env }));
		expect(texts(message)).toBe("scoped");
		expect(proxy.connects).toEqual([new URL(server.baseUrl).host]);
	});

	it.each(["anthropic-messages", "bedrock-converse-stream"] as const)(
		"%s aborts mid-stream through the tunnel like a direct request",
		async (api) => {
			await useProxyEnv({ HTTP_PROXY: proxy.url });
			const server = await mockServer(api);
			server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 6000 } });
			const controller = new AbortController();
			const running = wireApi(api).stream(wireModel(api, server), transcript(), {
				...wireAuth(api),
				signal: controller.signal,
			});
			for await (const event of running) if (event.type === "text_delta") controller.abort();
			const message = await running.result();
			expect(message.stopReason).toBe("aborted");
			expect(texts(message).length).toBeGreaterThan(0);
			expect(proxy.connects).toContain(new URL(server.baseUrl).host);
		},
	);
});
