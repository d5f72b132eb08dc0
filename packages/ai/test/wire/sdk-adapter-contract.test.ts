import {
	type AssistantMessageEvent,
	isContextOverflow,
	isRetryableAssistantError,
	type ProviderResponseInfo,
	type ToolCall,
} from "@tau/ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	body,
	collect,
	imageTranscript,
	loadWireAdapters,
	mockServer,
	readTool,
	SDK_WIRE_APIS,
	texts,
	transcript,
	type WireApi,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

/** Where each protocol puts an input image in the request body. */
const IMAGE_FORMS: Record<(typeof SDK_WIRE_APIS)[number], RegExp> = {
	"google-generative-ai": /"inlineData":\{"mimeType":"image\/png","data":"iVBORw0KGgo="\}/g,
	"google-vertex": /"inlineData":\{"mimeType":"image\/png","data":"iVBORw0KGgo="\}/g,
	// Bedrock sends image bytes, base64 in the JSON body.
	"bedrock-converse-stream": /"image":\{"format":"png","source":\{"bytes":"iVBORw0KGgo="\}\}/g,
	"mistral-conversations": /"type":"image_url","image_url":"data:image\/png;base64,iVBORw0KGgo="/g,
	"azure-openai-responses": /"type":"input_image","detail":"auto","image_url":"data:image\/png;base64,/g,
	"openai-codex-responses": /"type":"input_image","detail":"auto","image_url":"data:image\/png;base64,/g,
};

/** Each provider's context-overflow wording, as its API sends it. */
const OVERFLOW_WORDING: Record<(typeof SDK_WIRE_APIS)[number], string> = {
	"google-generative-ai": "The input token count (250000) exceeds the maximum number of tokens allowed (200000)",
	"google-vertex": "The input token count (250000) exceeds the maximum number of tokens allowed (200000)",
	"bedrock-converse-stream": "Input is too long for requested model",
	"mistral-conversations": "too large for model with 200000 maximum context length",
	"azure-openai-responses": "Your input exceeds the context window of this model",
	"openai-codex-responses": "Your input exceeds the context window of this model",
};

/** A payload with its temperature set where `api` keeps it (the SDKs drop fields they do not know). */
function withTemperature(api: WireApi, payload: Record<string, unknown>): Record<string, unknown> {
	if (api === "google-generative-ai" || api === "google-vertex") {
		return { ...payload, config: { ...(payload.config as object), temperature: 0.42 } };
	}
	if (api === "bedrock-converse-stream") {
		return { ...payload, inferenceConfig: { ...(payload.inferenceConfig as object), temperature: 0.42 } };
	}
	return { ...payload, temperature: 0.42 };
}

/** Gemini sends a function call whole; the others stream its argument text in pieces. */
const streamsToolArguments = (api: WireApi) => api !== "google-generative-ai" && api !== "google-vertex";

beforeAll(() => loadWireAdapters(SDK_WIRE_APIS), ADAPTER_LOAD_TIMEOUT_MS);

describe.each(SDK_WIRE_APIS)("%s adapter over the wire (official SDK)", (api) => {
	const stream = (
		server: Awaited<ReturnType<typeof mockServer>>,
		context = transcript(),
		extra: Record<string, unknown> = {},
		model = wireModel(api, server),
	) => wireApi(api).stream(model, context, { ...wireAuth(api), ...extra });

	it("streams text deltas into one text block, finishes with stop and names the model", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "Hello there, friend" });
		const { events, message } = await collect(stream(server));
		expect(message.stopReason).toBe("stop");
		expect(texts(message)).toBe("Hello there, friend");
		const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta);
		expect(deltas.length).toBeGreaterThan(1);
		expect(message.responseId).toBeTruthy();
		expect(message).toMatchObject({ api, provider: "mock", model: "mock-model" });
		expect(server.requests[0]?.stream).toBe(true);
		expect(server.requests[0]?.protocol).toBeDefined();
	});

	it("streams thinking, text and a tool call in order, each closed with the wire's replay data", async () => {
		const server = await mockServer(api);
		server.enqueue({
			thinking: { text: "let me think", signature: "sig-1" },
			text: "Reading it.",
			toolCalls: [{ id: "call_1", itemId: "fc_1", name: "read", arguments: { path: "a.ts" }, chunkSize: 3 }],
		});
		const model = wireModel(api, server, { reasoning: true });
		const { events, message } = await collect(stream(server, transcript({ tools: [readTool] }), {}, model));
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "text", "toolCall"]);
		const thinking = message.content[0];
		expect(thinking?.type === "thinking" && thinking.thinking).toBe("let me think");
		// Every protocol but Mistral's signs thoughts; the signature is what a later request replays.
		if (api !== "mistral-conversations")
			expect(thinking?.type === "thinking" && thinking.thinkingSignature).toBeTruthy();
		expect(message.content[2]).toMatchObject({ type: "toolCall", name: "read", arguments: { path: "a.ts" } });
		expect(message.stopReason).toBe("toolUse");
		const ends = events.filter((e) => e.type.endsWith("_end")).map((e) => e.type);
		expect(ends).toEqual(["thinking_end", "text_end", "toolcall_end"]);
		expect(JSON.stringify(body(server.requests[0]))).toContain('"read"');
	});

	it("parses a tool call's arguments incrementally and strictly at toolcall_end", async () => {
		const server = await mockServer(api);
		const args = { path: "src/index.ts", content: "line one\nline two" };
		server.enqueue({ toolCalls: [{ id: "call_1", itemId: "fc_1", name: "write", arguments: args, chunkSize: 5 }] });
		const partials: unknown[] = [];
		const events: AssistantMessageEvent[] = [];
		const running = stream(server, transcript({ tools: [readTool] }));
		for await (const event of running) {
			events.push(event);
			if (event.type === "toolcall_delta")
				partials.push((event.partial.content[event.contentIndex] as ToolCall).arguments);
		}
		const message = await running.result();
		expect(message.stopReason).toBe("toolUse");
		expect(partials.length).toBeGreaterThan(streamsToolArguments(api) ? 3 : 0);
		for (const partial of partials) expect(typeof partial).toBe("object");
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall).toMatchObject({ name: "write", arguments: args });
		expect((message.content[0] as ToolCall).argumentsError).toBeUndefined();
	});

	it("streams parallel tool calls into separate blocks with distinct ids", async () => {
		const server = await mockServer(api);
		server.enqueue({
			toolCalls: [
				{ id: "call_a", itemId: "fc_a", name: "read", arguments: { path: "a.ts" } },
				{ id: "call_b", itemId: "fc_b", name: "read", arguments: { path: "b.ts" } },
			],
		});
		const { events, message } = await collect(stream(server, transcript({ tools: [readTool] })));
		const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
		expect(calls.map((c) => c.arguments)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
		expect(new Set(calls.map((c) => c.id)).size).toBe(2);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
	});

	it("sends image input in the protocol's image form", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "A red dot." });
		const context = imageTranscript();
		const { message } = await collect(stream(server, context));
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.rawBody.match(IMAGE_FORMS[api])).toHaveLength(1);
	});

	it("reports usage with cache reads (and writes where the API has them) and the cost of each", async () => {
		const server = await mockServer(api);
		// Gemini and Mistral report no cache writes; the others do.
		const writes = api === "bedrock-converse-stream" || api.endsWith("-responses") ? 500 : 0;
		server.enqueue({ text: "ok", usage: { input: 1000, output: 200, cacheRead: 4000, cacheWrite: writes } });
		const { message } = await collect(stream(server));
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 4000, cacheWrite: writes });
		expect(message.usage.totalTokens).toBe(5200 + writes);
		expect(message.usage.cost.input).toBeCloseTo((3 * 1000) / 1e6);
		expect(message.usage.cost.output).toBeCloseTo((15 * 200) / 1e6);
		expect(message.usage.cost.cacheRead).toBeCloseTo((0.3 * 4000) / 1e6);
		expect(message.usage.cost.total).toBeCloseTo((3000 + 3000 + 1200 + 3.75 * writes) / 1e6);
	});

	it("maps an output-limit stop to length", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "cut", stopReason: "length" });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("length");
	});

	it("turns an in-stream provider error into an error event that keeps the partial text", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "partial words", stopReason: "error", error: { message: "Overloaded right now" } });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("error");
		expect(texts(message)).toBe("partial words");
		// Mistral ends the turn with finish_reason "error" and no message of its own.
		expect(message.errorMessage).toContain(
			api === "mistral-conversations" ? "Provider stopped with: error" : "Overloaded right now",
		);
	});

	it("aborts mid-stream with stopReason aborted, keeping partial content", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 6000 } });
		const controller = new AbortController();
		const running = stream(server, transcript(), { signal: controller.signal });
		for await (const event of running) if (event.type === "text_delta") controller.abort();
		const message = await running.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(texts(message).length).toBeGreaterThan(0);
	});

	it("aborts a stalled request before any content arrives", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "never", fault: { kind: "stall" } });
		const controller = new AbortController();
		const running = stream(server, transcript(), { signal: controller.signal });
		await server.waitForRequest(0);
		controller.abort();
		const { message } = await collect(running);
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([]);
	});

	it("turns an HTTP error into a bare error event carrying the provider's status and message", async () => {
		const server = await mockServer(api);
		server.enqueue({ fault: { kind: "http", status: 429, message: "Slow down, please" } });
		const { events, message } = await collect(stream(server));
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toContain("Slow down, please");
		expect(isRetryableAssistantError(message)).toBe(true);
	});

	it("reports a context overflow with the provider's wording", async () => {
		const server = await mockServer(api);
		server.enqueue({ fault: { kind: "overflow", inputTokens: 250_000, contextWindow: 200_000 } });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(OVERFLOW_WORDING[api]);
		expect(isContextOverflow(message)).toBe(true);
		expect(isRetryableAssistantError(message)).toBe(false);
	});

	it("reports a mid-stream disconnect as a retryable error that keeps what arrived", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "disconnect", afterBytes: 6000 } });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("error");
		expect(texts(message).length).toBeGreaterThan(0);
		expect(isRetryableAssistantError(message)).toBe(true);
	});

	it("reports a stream that ends cleanly without its stop as an error", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "one two three", fault: { kind: "omitStop" } });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/ended (without|before)/);
		expect(texts(message)).toBe("one two three");
	});

	it("connection refused becomes a bare, retryable error naming the cause", async () => {
		const server = await mockServer(api);
		const model = wireModel(api, server);
		await server.close();
		const { events, message } = await collect(stream(server, transcript(), {}, model));
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toMatch(/ECONNREFUSED/);
		expect(isRetryableAssistantError(message)).toBe(true);
	});

	it("reports the response status and headers to onResponse before start, and applies onPayload", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const seen: string[] = [];
		let info: ProviderResponseInfo | undefined;
		const running = stream(server, transcript(), {
			onPayload: (payload: unknown) => withTemperature(api, payload as Record<string, unknown>),
			onResponse: (response: ProviderResponseInfo) => {
				info = response;
				seen.push("response");
			},
		});
		for await (const event of running) seen.push(event.type);
		expect(seen.slice(0, 2)).toEqual(["response", "start"]);
		expect(info?.status).toBe(200);
		expect(Object.keys(info?.headers ?? {}).every((name) => name === name.toLowerCase())).toBe(true);
		expect(server.requests[0]?.rawBody).toContain("0.42");
	});

	// Bedrock takes its credentials from the AWS chain (environment, profile, instance role), so it has
	// no missing-key case of its own; the other APIs must fail before any request.
	if (api !== "bedrock-converse-stream") {
		it("without a credential: an error event naming the provider, no request", async () => {
			const server = await mockServer(api);
			const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), {}));
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toMatch(/No API key for provider: mock|project ID|account id/);
			expect(server.requests).toHaveLength(0);
		});
	}
});
