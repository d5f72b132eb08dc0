import Anthropic from "@anthropic-ai/sdk";
import { generateWords, type MockLlmServer, type MockStopReason, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";

let server: MockLlmServer;

async function start(): Promise<Anthropic> {
	server = await startMockLlmServer({ apiKey: "test-key" });
	return new Anthropic({ apiKey: "test-key", baseURL: server.baseUrl, maxRetries: 0 });
}

afterEach(() => server?.close());

const request = { model: "claude-test", max_tokens: 1024, messages: [{ role: "user" as const, content: "hi" }] };

async function rawEvents(client: Anthropic) {
	const stream = await client.messages.create({ ...request, stream: true });
	const events = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("anthropic messages stream", () => {
	it("streams text of N tokens in deltas of K tokens, framed by message events", async () => {
		const client = await start();
		server.enqueue({ text: { tokens: 12 }, chunkSize: 4 });
		const events = await rawEvents(client);
		expect(events.map((event) => event.type)).toEqual([
			"message_start",
			"content_block_start",
			"content_block_delta",
			"content_block_delta",
			"content_block_delta",
			"content_block_stop",
			"message_delta",
			"message_stop",
		]);
		const text = events.flatMap((event) =>
			event.type === "content_block_delta" && event.delta.type === "text_delta" ? [event.delta.text] : [],
		);
		expect(text).toHaveLength(3);
		expect(text.join("")).toBe(generateWords(12));
		const first = events[0];
		expect(first?.type === "message_start" && first.message.model).toBe("claude-test");
	});

	it("delivers thinking with its signature, redacted thinking and text to the SDK's message builder", async () => {
		const client = await start();
		server.enqueue({
			thinking: { text: "let me think about it", signature: "sig-123" },
			redactedThinking: "opaque-data",
			text: "The answer.",
		});
		const stream = client.messages.stream(request);
		const signatures: string[] = [];
		stream.on("streamEvent", (event) => {
			if (event.type === "content_block_delta" && event.delta.type === "signature_delta") {
				signatures.push(event.delta.signature);
			}
		});
		const message = await stream.finalMessage();
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "let me think about it", signature: "sig-123" },
			{ type: "redacted_thinking", data: "opaque-data" },
			{ type: "text", text: "The answer." },
		]);
		expect(signatures).toEqual(["sig-123"]);
	});

	it("streams a single tool call as input_json_delta pieces the SDK reassembles", async () => {
		const client = await start();
		const args = { path: "src/index.ts", content: "a\nb", nested: { list: [1, 2, 3] } };
		server.enqueue({ toolCalls: [{ id: "toolu_1", name: "write", arguments: args, chunkSize: 5 }] });
		const stream = client.messages.stream(request);
		const partials: string[] = [];
		stream.on("inputJson", (partial) => partials.push(partial));
		const message = await stream.finalMessage();
		expect(message.content).toEqual([{ type: "tool_use", id: "toolu_1", name: "write", input: args }]);
		expect(partials.join("")).toBe(JSON.stringify(args));
		expect(partials.length).toBe(Math.ceil(JSON.stringify(args).length / 5));
		expect(message.stop_reason).toBe("tool_use");
	});

	it("streams parallel tool calls after text, each in its own block", async () => {
		const client = await start();
		server.enqueue({
			text: "Reading both.",
			toolCalls: [
				{ name: "read", arguments: { path: "a" } },
				{ name: "read", arguments: { path: "b" } },
			],
		});
		const message = await client.messages.stream(request).finalMessage();
		expect(message.content.map((block) => block.type)).toEqual(["text", "tool_use", "tool_use"]);
		const calls = message.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
		expect(calls.map((call) => call.input)).toEqual([{ path: "a" }, { path: "b" }]);
		expect(new Set(calls.map((call) => call.id)).size).toBe(2);
	});

	it("reports usage, including cache reads and writes, in message_start and message_delta", async () => {
		const client = await start();
		server.enqueue({
			text: "ok",
			usage: { input: 100, output: 20, cacheRead: 300, cacheWrite: 50, cacheWrite1h: 10, reasoning: 5 },
		});
		const events = await rawEvents(client);
		const opening = events.find((event) => event.type === "message_start");
		expect(opening?.type === "message_start" && opening.message.usage).toMatchObject({
			input_tokens: 100,
			cache_read_input_tokens: 300,
			cache_creation_input_tokens: 50,
			cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 10 },
		});
		const delta = events.find((event) => event.type === "message_delta");
		expect(delta?.type === "message_delta" && delta.usage).toEqual({
			input_tokens: 100,
			cache_read_input_tokens: 300,
			cache_creation_input_tokens: 50,
			output_tokens: 20,
			output_tokens_details: { thinking_tokens: 5 },
		});
	});

	const stopReasons: Array<[MockStopReason, string]> = [
		["stop", "end_turn"],
		["length", "max_tokens"],
		["toolUse", "tool_use"],
		["stopSequence", "stop_sequence"],
		["refusal", "refusal"],
		["pauseTurn", "pause_turn"],
	];
	it.each(stopReasons)("maps stop reason %s to %s", async (neutral, wire) => {
		const client = await start();
		server.enqueue({ text: "x", stopReason: neutral });
		const message = await client.messages.stream(request).finalMessage();
		expect(message.stop_reason).toBe(wire);
	});

	it("sends the refusal explanation in stop_details", async () => {
		const client = await start();
		server.enqueue({ stopReason: "refusal", refusal: "Not going to help with that." });
		const message = await client.messages.stream(request).finalMessage();
		expect(message.stop_details).toEqual({
			type: "refusal",
			category: null,
			explanation: "Not going to help with that.",
		});
	});

	it("sends a raw stop reason verbatim", async () => {
		const client = await start();
		server.enqueue({ text: "x", rawStopReason: "sensitive" });
		const events = await rawEvents(client);
		const delta = events.find((event) => event.type === "message_delta");
		expect(delta?.type === "message_delta" && delta.delta.stop_reason).toBe("sensitive");
	});

	it("ends a stream with an SSE error event that the SDK raises as an API error", async () => {
		const client = await start();
		server.enqueue({
			text: "partial",
			stopReason: "error",
			error: { type: "overloaded_error", message: "Overloaded" },
		});
		const error = await rawEvents(client).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Anthropic.APIError);
		expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
			type: "error",
			error: { type: "overloaded_error", message: "Overloaded" },
		});
	});
});

describe("anthropic messages JSON", () => {
	it("answers a non-streaming request with a complete message", async () => {
		const client = await start();
		server.enqueue({
			thinking: { text: "hmm", signature: "s" },
			text: "Hello there",
			toolCalls: [{ id: "toolu_9", name: "ls", arguments: { dir: "." } }],
			usage: { input: 7, output: 3, cacheRead: 2, cacheWrite: 1 },
		});
		const message = await client.messages.create(request);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "hmm", signature: "s" },
			{ type: "text", text: "Hello there" },
			{ type: "tool_use", id: "toolu_9", name: "ls", input: { dir: "." } },
		]);
		expect(message.stop_reason).toBe("tool_use");
		expect(message.usage).toMatchObject({
			input_tokens: 7,
			output_tokens: 3,
			cache_read_input_tokens: 2,
			cache_creation_input_tokens: 1,
		});
		expect(server.requests[0]?.stream).toBe(false);
	});
});

describe("anthropic HTTP errors", () => {
	it("serves 529 overloaded_error and 429 rate_limit_error with retry-after as the SDK's typed errors", async () => {
		const client = await start();
		server.enqueue(
			{ fault: { kind: "http", status: 529 } },
			{ fault: { kind: "http", status: 429, retryAfter: 30 } },
		);
		const overloaded = await client.messages.create(request).catch((e: unknown) => e);
		expect(overloaded).toBeInstanceOf(Anthropic.APIError);
		expect((overloaded as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
		expect((overloaded as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
			type: "error",
			error: { type: "overloaded_error", message: "Overloaded" },
		});
		const limited = await client.messages.create(request).catch((e: unknown) => e);
		expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
		expect((limited as InstanceType<typeof Anthropic.APIError>).headers?.get("retry-after")).toBe("30");
		expect((limited as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
			error: { type: "rate_limit_error" },
		});
	});
});

describe("anthropic auth and request log", () => {
	it("records the parsed body and headers, and rejects a wrong key with 401 authentication_error", async () => {
		const client = await start();
		server.enqueue({ text: "first" });
		await client.messages.create(request);
		const wrong = new Anthropic({ apiKey: "wrong", baseURL: server.baseUrl, maxRetries: 0 });
		const error = await wrong.messages.create(request).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
		expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
			error: { type: "authentication_error" },
		});
		expect(server.requests.map((entry) => [entry.path, entry.status])).toEqual([
			["/v1/messages", 200],
			["/v1/messages", 401],
		]);
		const [first] = server.requests;
		expect(first?.body).toMatchObject({ model: "claude-test", messages: [{ role: "user", content: "hi" }] });
		// SDK 1.14 sends the API key as a bearer token.
		expect(first?.headers.authorization).toBe("Bearer test-key");
		expect(first?.protocol).toBe("anthropic-messages");
		expect(server.pending).toBe(0);
	});
});
