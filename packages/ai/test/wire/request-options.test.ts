import { type AssistantMessageEvent, createModels, createProvider, isRetryableAssistantError } from "@tau/ai";
import { describe, expect, it } from "vitest";
import * as anthropicMessages from "../../src/api/anthropic-messages/index.js";
import * as openAICompletions from "../../src/api/openai-completions/index.js";
import * as openAIResponses from "../../src/api/openai-responses/index.js";
import {
	API_KEY,
	body,
	collect,
	mockServer,
	texts,
	transcript,
	WIRE_APIS,
	wireApi,
	wireModel,
} from "./wire-harness.js";

const ADAPTER_MODULES = {
	"anthropic-messages": anthropicMessages,
	"openai-completions": openAICompletions,
	"openai-responses": openAIResponses,
};

const REQUEST_ID_HEADER = {
	"anthropic-messages": "request-id",
	"openai-completions": "x-request-id",
	"openai-responses": "x-request-id",
};

/** Yields to the event loop a few times, so any work not blocked on a promise gets to run. */
async function drainEventLoop(): Promise<void> {
	for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe.each(WIRE_APIS)("%s request options and hooks", (api) => {
	it("onPayload sees the built body and its replacement is what the server receives", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		let seen: Record<string, unknown> | undefined;
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				onPayload: (payload) => {
					seen = payload as Record<string, unknown>;
					const { stream: _stream, ...rest } = seen;
					return { ...rest, ...(api === "anthropic-messages" ? {} : { stream: true }), model: "replaced-model" };
				},
			}),
		);
		expect(message.stopReason).toBe("stop");
		expect(seen?.model).toBe("mock-model");
		expect(body(server.requests[0]).model).toBe("replaced-model");
		expect(body(server.requests[0]).stream).toBe(true);
	});

	it("a throwing onPayload fails the request before anything is sent", async () => {
		const server = await mockServer();
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				onPayload: () => {
					throw new Error("payload rejected by host");
				},
			}),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toBe("payload rejected by host");
		expect(server.requests).toHaveLength(0);
	});

	it("onResponse gets status and lower-cased headers before start", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const order: string[] = [];
		let info: { status: number; headers: Record<string, string> } | undefined;
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			onResponse: (response) => {
				info = response;
				order.push("onResponse");
			},
		});
		for await (const event of stream) order.push(event.type);
		expect(order.slice(0, 2)).toEqual(["onResponse", "start"]);
		expect(info?.status).toBe(200);
		expect(info?.headers[REQUEST_ID_HEADER[api]]).toMatch(/^req_mock_/);
		expect(Object.keys(info?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
	});

	it("a throwing onResponse fails the request with a bare error", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				onResponse: () => {
					throw new Error("status not welcome");
				},
			}),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toBe("status not welcome");
	});

	it("onProviderStreamEvent sees every provider event in order and is awaited before normalization", async () => {
		const server = await mockServer();
		server.enqueue({ text: "alpha beta gamma" });
		const seen: AssistantMessageEvent[] = [];
		const provider: unknown[] = [];
		let deltasWhileFirstCallbackRan = -1;
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			onProviderStreamEvent: async (data) => {
				provider.push(data);
				if (provider.length !== 1) return;
				await drainEventLoop();
				deltasWhileFirstCallbackRan = seen.filter((e) => e.type === "text_delta").length;
			},
		});
		for await (const event of stream) seen.push(event);
		expect(deltasWhileFirstCallbackRan).toBe(0);
		expect(seen.filter((e) => e.type === "text_delta")).toHaveLength(3);
		const first = provider[0] as { type?: string; object?: string };
		const expectedFirst = {
			"anthropic-messages": "message_start",
			"openai-completions": undefined,
			"openai-responses": "response.created",
		}[api];
		expect(first.type).toBe(expectedFirst);
		if (api === "openai-completions") expect(first.object).toBe("chat.completion.chunk");
		expect(provider.length).toBeGreaterThan(3);
	});

	it("a throwing onProviderStreamEvent fails the stream after start, keeping partial content", async () => {
		const server = await mockServer();
		server.enqueue({ text: "alpha beta gamma delta" });
		let calls = 0;
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				onProviderStreamEvent: (data) => {
					calls++;
					if (JSON.stringify(data).includes("gamma")) throw new Error("observer failed");
				},
			}),
		);
		expect(events[0]?.type).toBe("start");
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("observer failed");
		expect(texts(message)).toContain("beta");
		expect(texts(message)).not.toContain("gamma");
		expect(calls).toBeGreaterThan(1);
	});

	it("retries a 429 when maxRetries allows it, honouring retry-after", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "http", status: 429, retryAfter: 0 } }, { text: "second time lucky" });
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY, maxRetries: 1 }),
		);
		expect(message.stopReason).toBe("stop");
		expect(texts(message)).toBe("second time lucky");
		expect(server.requests).toHaveLength(2);
	});

	it("does not retry by default", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "http", status: 429, retryAfter: 0 } }, { text: "unused" });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("429");
		expect(server.requests).toHaveLength(1);
	});

	it("fails fast when the server asks for a longer delay than maxRetryDelayMs", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "http", status: 529, retryAfter: 120, message: "Overloaded" } });
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				maxRetries: 3,
				maxRetryDelayMs: 1000,
			}),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Server requested 120s retry delay \(max: 1s\)\. /);
		expect(message.errorMessage).toContain("Overloaded");
		expect(server.requests).toHaveLength(1);
	});

	it("an abort during the retry sleep ends the request as aborted without another attempt", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "http", status: 503, retryAfter: 30 } }, { text: "unused" });
		const controller = new AbortController();
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			maxRetries: 2,
			signal: controller.signal,
		});
		await server.waitForSettled(0);
		controller.abort();
		const { message } = await collect(stream);
		expect(message.stopReason).toBe("aborted");
		expect(server.requests).toHaveLength(1);
	});

	it("merges headers: identity < adapter defaults < model.headers < options.headers, case-insensitive, null suppresses", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" });
		const model = wireModel(api, server, {
			headers: { "User-Agent": "model-agent", "x-layer": "model", "x-dropped": "model", "x-model-only": "m" },
		});
		await collect(
			wireApi(api).stream(model, transcript(), {
				apiKey: API_KEY,
				headers: { "X-Layer": "options", "x-dropped": null },
			}),
		);
		const headers = server.requests[0]?.headers ?? {};
		expect(headers["user-agent"]).toBe("model-agent");
		expect(headers["x-layer"]).toBe("options");
		expect(headers["x-model-only"]).toBe("m");
		expect(headers["x-dropped"]).toBeUndefined();

		await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), {
				apiKey: API_KEY,
				identity: { userAgent: "short" },
			}),
		);
		expect(server.requests[1]?.headers["user-agent"]).toBe("tau");
	});

	it("through Models: auth headers < model.headers < options.headers, then transformHeaders is what the server gets", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const model = wireModel(api, server, { headers: { "x-layer": "model", "x-model": "m" } });
		const models = createModels();
		models.setProvider(
			createProvider({
				id: "mock",
				auth: {
					apiKey: {
						name: "Mock",
						resolve: async () => ({
							auth: { apiKey: API_KEY, headers: { "X-Layer": "auth", "x-auth": "a", "x-gone": "auth" } },
						}),
					},
				},
				models: [model],
				api: wireApi(api),
			}),
		);
		let seen: Record<string, string | null> | undefined;
		const { message } = await collect(
			models.stream(
				model,
				{ messages: [{ role: "user", content: "Hello", timestamp: 1 }] },
				{
					headers: { "X-LAYER": "options", "x-gone": null },
					transformHeaders: (headers) => {
						seen = headers;
						const { "x-model": _dropped, ...rest } = headers;
						return { ...rest, "x-transformed": "t" };
					},
				},
			),
		);
		expect(message.stopReason).toBe("stop");
		expect(seen).toMatchObject({ "X-LAYER": "options", "x-auth": "a", "x-gone": null, "x-model": "m" });
		const headers = server.requests[0]?.headers ?? {};
		expect(headers["x-layer"]).toBe("options");
		expect(headers["x-auth"]).toBe("a");
		expect(headers["x-transformed"]).toBe("t");
		expect(headers["x-gone"]).toBeUndefined();
		expect(headers["x-model"]).toBeUndefined();
	});

	it("an authenticating header replaces the API key", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const headers: Record<string, string> =
			api === "anthropic-messages" ? { "x-api-key": API_KEY } : { Authorization: `Bearer ${API_KEY}` };
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { headers }));
		expect(message.stopReason).toBe("stop");
	});

	it("a direct streamSimple call without auth throws synchronously", async () => {
		const server = await mockServer();
		const adapter = ADAPTER_MODULES[api];
		expect(() => adapter.streamSimple(wireModel(api, server), transcript(), {})).toThrow(
			"No API key for provider: mock",
		);
	});

	it("sends through a custom fetch when one is given", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const urls: string[] = [];
		const countingFetch: typeof fetch = (input, init) => {
			urls.push(String(input instanceof Request ? input.url : input));
			return fetch(input, init);
		};
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY, fetch: countingFetch }),
		);
		expect(message.stopReason).toBe("stop");
		expect(urls).toHaveLength(1);
		expect(urls[0]).toMatch(/\/(messages|chat\/completions|responses)$/);
	});

	it("timeoutMs also bounds a response that goes quiet midway: a retryable error keeping the partial text", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 3000 } });
		const { events, message } = await collect(
			// Long enough that a loaded machine still delivers the first 3000 bytes within it.
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY, timeoutMs: 1000 }),
		);
		expect(events.some((e) => e.type === "text_delta")).toBe(true);
		expect(events.at(-1)?.type).toBe("error");
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"Request timed out: the provider sent no data for 1 s in the middle of the response",
		);
		expect(isRetryableAssistantError(message)).toBe(true);
		expect(texts(message).length).toBeGreaterThan(0);
		// The stalled request was aborted, so its connection is released, not left hanging.
		expect(await server.waitForSettled(0)).toMatchObject({ outcome: "client-closed" });
	});

	it("negative control: without timeoutMs the same stall is only ended by an abort", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 3000 } });
		const controller = new AbortController();
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			signal: controller.signal,
		});
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		expect((await stream.result()).stopReason).toBe("aborted");
	});

	it("timeoutMs bounds a request that never answers", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "stall" } });
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY, timeoutMs: 50 }),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/timed out/i);
	});
});
