import { getEventListeners } from "node:events";
import {
	type Api,
	type AssistantMessageEvent,
	isContextOverflow,
	isRetryableAssistantError,
	type Model,
	type Tool,
	type ToolCall,
	type TranscriptContext,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import {
	API_KEY,
	body,
	collect,
	imageTranscript,
	mockServer,
	readTool,
	texts,
	transcript,
	WIRE_APIS,
	type WireApi,
	wireApi,
	wireModel,
} from "./wire-harness.js";

/** Where each protocol puts an input image in the request body. */
function requestImages(api: WireApi, requestBody: Record<string, unknown>): unknown[] {
	const text = JSON.stringify(requestBody);
	if (api === "anthropic-messages") return text.match(/"type":"image","source":\{"type":"base64"/g) ?? [];
	if (api === "openai-completions") return text.match(/"image_url":\{"url":"data:image\/png;base64,/g) ?? [];
	return text.match(/"type":"input_image","detail":"auto","image_url":"data:image\/png;base64,/g) ?? [];
}

describe.each(WIRE_APIS)("%s adapter over the wire", (api) => {
	it("streams text deltas into one text block and finishes with stop", async () => {
		const server = await mockServer();
		server.enqueue({ text: "Hello there, friend" });
		const model = wireModel(api, server);
		const { events, message } = await collect(wireApi(api).stream(model, transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("stop");
		expect(texts(message)).toBe("Hello there, friend");
		const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta);
		expect(deltas.length).toBeGreaterThan(1);
		expect(deltas.join("")).toBe("Hello there, friend");
		expect(message.responseId).toBeTruthy();
		expect(message.api).toBe(api);
		expect(message.model).toBe("mock-model");
		expect(body(server.requests[0]).model).toBe("mock-model");
		expect(body(server.requests[0]).stream).toBe(true);
	});

	it("keeps partial a live object and stream state off the content blocks", async () => {
		const server = await mockServer();
		server.enqueue({
			thinking: { text: "think first", signature: "sig" },
			text: "a b c",
			toolCalls: [{ name: "read", arguments: { path: "x.ts" }, chunkSize: 3 }],
		});
		const stream = wireApi(api).stream(wireModel(api, server, { reasoning: true }), transcript(), {
			apiKey: API_KEY,
		});
		const fields: Record<string, string[]> = {
			text: ["text", "textSignature", "type"],
			thinking: ["redacted", "thinking", "thinkingSignature", "type"],
			toolCall: ["arguments", "id", "name", "type"],
		};
		const partials = new Set<unknown>();
		const leaked: string[] = [];
		for await (const event of stream) {
			const blocks = "partial" in event ? event.partial.content : [];
			if ("partial" in event) partials.add(event.partial);
			for (const block of blocks)
				for (const key of Object.keys(block))
					if (!fields[block.type]?.includes(key)) leaked.push(`${event.type}: ${block.type}.${key}`);
		}
		const message = await stream.result();
		expect(partials.size).toBe(1);
		expect(partials.has(message)).toBe(true);
		expect(leaked).toEqual([]);
		expect(message.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
		for (const block of message.content)
			expect(Object.keys(block).every((k) => fields[block.type]?.includes(k))).toBe(true);
		expect(Object.keys(message.content[2] as ToolCall).sort()).toEqual(["arguments", "id", "name", "type"]);
		expect(JSON.parse(JSON.stringify(message))).toEqual(message);
	});

	it("streams a tool call through the incremental parser and parses it strictly at toolcall_end", async () => {
		const server = await mockServer();
		const args = { path: "src/index.ts", content: "line one\nline two" };
		server.enqueue({ toolCalls: [{ id: "call_1", itemId: "fc_1", name: "write", arguments: args, chunkSize: 5 }] });
		const model = wireModel(api, server);
		const seen: unknown[] = [];
		const stream = wireApi(api).stream(model, transcript({ tools: [readTool] }), { apiKey: API_KEY });
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "toolcall_delta")
				seen.push((event.partial.content[event.contentIndex] as ToolCall).arguments);
		}
		const message = await stream.result();
		expect(message.stopReason).toBe("toolUse");
		expect(seen.length).toBeGreaterThan(3);
		for (const partial of seen) expect(typeof partial).toBe("object");
		expect(seen.at(-1)).toEqual(args);
		const end = events.find((e) => e.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall).toMatchObject({ name: "write", arguments: args });
		const call = message.content[0] as ToolCall;
		expect(call.id.startsWith("call_1")).toBe(true);
		expect(call.argumentsError).toBeUndefined();
	});

	it("streams parallel tool calls into separate blocks", async () => {
		const server = await mockServer();
		server.enqueue({
			text: "Reading both.",
			toolCalls: [
				{ id: "call_a", itemId: "fc_a", name: "read", arguments: { path: "a.ts" } },
				{ id: "call_b", itemId: "fc_b", name: "read", arguments: { path: "b.ts" } },
			],
		});
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript({ tools: [readTool] }), { apiKey: API_KEY }),
		);
		const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
		expect(calls.map((c) => c.arguments)).toEqual([{ path: "a.ts" }, { path: "b.ts" }]);
		expect(new Set(calls.map((c) => c.id)).size).toBe(2);
		expect(events.filter((e) => e.type === "toolcall_end")).toHaveLength(2);
		expect(message.stopReason).toBe("toolUse");
	});

	it("reports malformed final argument text as argumentsError with empty arguments", async () => {
		const server = await mockServer();
		server.enqueue({ toolCalls: [{ name: "read", arguments: '{"path": "a.ts"' }] });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		const call = message.content[0] as ToolCall;
		expect(call.arguments).toEqual({});
		expect(call.argumentsError).toContain("Received arguments:");
		expect(call.argumentsError).toContain('{"path": "a.ts"');
	});

	it("sends image input in the protocol's image form", async () => {
		const server = await mockServer();
		server.enqueue({ text: "A red dot." });
		const context = imageTranscript();
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), context, { apiKey: API_KEY }));
		expect(message.stopReason).toBe("stop");
		expect(requestImages(api, body(server.requests[0]))).toHaveLength(1);
	});

	it("reports usage with cache reads and writes, and the cost of each", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok", usage: { input: 1000, output: 200, cacheRead: 4000, cacheWrite: 500 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 4000, cacheWrite: 500 });
		expect(message.usage.totalTokens).toBe(5700);
		expect(message.usage.cost.input).toBeCloseTo((3 * 1000) / 1e6);
		expect(message.usage.cost.output).toBeCloseTo((15 * 200) / 1e6);
		expect(message.usage.cost.cacheRead).toBeCloseTo((0.3 * 4000) / 1e6);
		expect(message.usage.cost.cacheWrite).toBeCloseTo((3.75 * 500) / 1e6);
		expect(message.usage.cost.total).toBeCloseTo((3000 + 3000 + 1200 + 1875) / 1e6);
	});

	it("maps an output-limit stop to length", async () => {
		const server = await mockServer();
		server.enqueue({ text: "cut", stopReason: "length" });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("length");
	});

	it("turns an in-stream provider error into an error event that keeps the partial text", async () => {
		const server = await mockServer();
		server.enqueue({ text: "partial words", stopReason: "error", error: { message: "Overloaded right now" } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("Overloaded right now");
		expect(texts(message)).toBe("partial words");
	});

	it("aborts mid-stream with stopReason aborted, keeping partial content", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 6000 } });
		const controller = new AbortController();
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			signal: controller.signal,
		});
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "text_delta") controller.abort();
		}
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(texts(message).length).toBeGreaterThan(0);
		expect(events.at(-1)?.type).toBe("error");
	});

	it("leaves no abort listener on a caller's signal shared by many requests", async () => {
		const server = await mockServer();
		const controller = new AbortController();
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on("warning", onWarning);
		try {
			// A run's signal lives for many requests: one listener left per request warns at the 11th.
			for (let i = 0; i < 12; i++) {
				server.enqueue({ text: `reply ${i}` });
				const options = { apiKey: API_KEY, signal: controller.signal };
				const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), options));
				expect(message.stopReason).toBe("stop");
				expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
			}
		} finally {
			process.off("warning", onWarning);
		}
		expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
	});

	it("aborts a stalled stream before any content arrives", async () => {
		const server = await mockServer();
		server.enqueue({ text: "never", fault: { kind: "stall" } });
		const controller = new AbortController();
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			signal: controller.signal,
		});
		await server.waitForRequest(0);
		controller.abort();
		const { message } = await collect(stream);
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([]);
	});

	it("turns an HTTP error with a JSON body into a bare error event carrying the provider's message", async () => {
		const server = await mockServer();
		server.enqueue({ text: "x", fault: { kind: "http", status: 400, message: "messages: field required" } });
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("400");
		expect(message.errorMessage).toContain("messages: field required");
	});

	it("keeps a non-JSON error body as text", async () => {
		const server = await mockServer();
		server.enqueue({
			raw: "<html>502 Bad Gateway from the proxy</html>",
			status: 502,
			headers: { "content-type": "text/html" },
		});
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("502");
		expect(message.errorMessage).toContain("Bad Gateway from the proxy");
	});

	it("reports a context overflow with the provider's wording", async () => {
		const server = await mockServer();
		server.enqueue({ fault: { kind: "overflow", inputTokens: 250_000, contextWindow: 200_000 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		const wording = {
			"anthropic-messages": "prompt is too long: 250000 tokens > 200000 maximum",
			"openai-completions": "maximum context length is 200000 tokens",
			"openai-responses": "Your input exceeds the context window of this model",
		}[api];
		expect(message.errorMessage).toContain("400");
		expect(message.errorMessage).toContain(wording);
		expect(isContextOverflow(message)).toBe(true);
		expect(isRetryableAssistantError(message)).toBe(false);
	});

	it("truncates huge error bodies at 4000 characters", async () => {
		const server = await mockServer();
		const huge = "x".repeat(10_000);
		const errorBody =
			api === "anthropic-messages"
				? { type: "error", error: { type: "invalid_request_error", message: huge, detail: huge } }
				: { error: { message: "bad", type: "invalid_request_error", detail: huge } };
		server.enqueue({ fault: { kind: "http", status: 400, body: errorBody } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.errorMessage).toMatch(/\.\.\. \[truncated \d+ chars\]$/);
		expect(message.errorMessage?.length).toBeLessThan(4200);
	});

	it("reports a mid-stream disconnect as an error that keeps what arrived", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "disconnect", afterBytes: 6000 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		expect(isRetryableAssistantError(message)).toBe(true);
		expect(texts(message).length).toBeGreaterThan(0);
	});

	it("reports a stream that ends cleanly without its terminal event", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "truncate", afterBytes: 6000 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		const expected = {
			"anthropic-messages": "Anthropic stream ended before message_stop",
			"openai-completions": "Stream ended without finish_reason",
			"openai-responses": "OpenAI Responses stream ended before a terminal response event",
		}[api];
		expect(message.errorMessage).toBe(expected);
		expect(isRetryableAssistantError(message)).toBe(true);
	});

	it("reports a malformed SSE line as an error event", async () => {
		const server = await mockServer();
		server.enqueue({ text: "one two three", fault: { kind: "malformed", afterEvents: 2 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/JSON/);
	});

	it("connection refused becomes a bare error naming the cause", async () => {
		const server = await mockServer();
		const model = wireModel(api, server);
		await server.close();
		const { events, message } = await collect(wireApi(api).stream(model, transcript(), { apiKey: API_KEY }));
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toContain("ECONNREFUSED");
		expect(isRetryableAssistantError(message)).toBe(true);
	});

	it("an invalid base URL becomes an error event, never a throw or a hang", async () => {
		const server = await mockServer();
		const model = wireModel(api, server, { baseUrl: "not a url at all" });
		const { events, message } = await collect(wireApi(api).stream(model, transcript(), { apiKey: API_KEY }));
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toBeTruthy();
		expect(server.requests).toHaveLength(0);
	});

	it("a malformed model or transcript becomes an error event, never a synchronous throw", async () => {
		const server = await mockServer();
		const noBaseUrl = { ...wireModel(api, server), baseUrl: undefined } as unknown as Model<Api>;
		const broken = { messages: undefined } as unknown as TranscriptContext;
		const first = await collect(wireApi(api).stream(noBaseUrl, broken, { apiKey: API_KEY }));
		expect(first.events.map((e) => e.type)).toEqual(["error"]);
		expect(first.message.errorMessage).toBeTruthy();
		expect(server.requests).toHaveLength(0);
	});

	it("a tool that requires strict sampling the model lacks fails with the exact message", async () => {
		const server = await mockServer();
		const strictTool: Tool = { ...readTool, constrainedSampling: { type: "json_schema", strict: "require" } };
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript({ tools: [strictTool] }), { apiKey: API_KEY }),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toBe(
			'Tool "read" requires JSON-schema constrained sampling, but strict tools are unsupported.',
		);
		expect(server.requests).toHaveLength(0);
	});

	it("a tool whose parameters are not an object schema fails locally, naming the tool", async () => {
		const server = await mockServer();
		const broken = { name: "broken", description: "x", parameters: { type: "string" } } as Tool;
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server), transcript({ tools: [broken] }), { apiKey: API_KEY }),
		);
		expect(events.map((e) => e.type)).toEqual(["error"]);
		expect(message.errorMessage).toBe(
			'Tool "broken" has invalid parameters: the root schema must have type "object"',
		);
		const nullSchema = { name: "nothing", description: "x", parameters: null } as unknown as Tool;
		const second = await collect(
			wireApi(api).stream(wireModel(api, server), transcript({ tools: [nullSchema] }), { apiKey: API_KEY }),
		);
		expect(second.message.errorMessage).toBe('Tool "nothing" has invalid parameters: expected a JSON Schema object');
		expect(server.requests).toHaveLength(0);
	});

	it("without a key: stream yields an error event naming the provider", async () => {
		const server = await mockServer();
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), {}));
		expect(message.errorMessage).toBe("No API key for provider: mock");
		expect(server.requests).toHaveLength(0);
	});
});
