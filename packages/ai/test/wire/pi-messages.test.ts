import type { Api, AssistantMessage, AssistantMessageEvent, Context, Model, ToolCall } from "@tau/ai";
import { normalizeContext } from "@tau/ai";
import { getApiProviders, piMessagesApi } from "@tau/ai/compat";
import { type MockLlmServer, PI_MESSAGES_PRICES, sseFrame } from "@tau/testkit";
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
	wireApi,
	wireModel,
} from "./wire-harness.js";

/** A gateway model; the testkit backend serves the protocol under `/pi` (`basePath` "/pi/v1"). */
function piModel(server: MockLlmServer, basePath = "/v1"): Model<Api> {
	return {
		id: "gateway-model",
		name: "Gateway model",
		api: "pi-messages",
		provider: "radius",
		baseUrl: `${server.url(basePath)}/`,
		input: ["text", "image"],
		reasoning: true,
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 4096,
	};
}

const usage = {
	input: 12,
	output: 7,
	cacheRead: 3,
	cacheWrite: 0,
	totalTokens: 22,
	cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

const frames = (...events: object[]) => events.map((event) => sseFrame(event));

describe("pi-messages wire API", () => {
	it("posts pi's own request and replays the backend's events as the message", async () => {
		const server = await mockServer();
		server.enqueue({
			raw: frames(
				{ type: "start" },
				{ type: "thinking_start", contentIndex: 0 },
				{ type: "thinking_delta", contentIndex: 0, delta: "Let me " },
				{ type: "thinking_end", contentIndex: 0, content: "Let me look.", contentSignature: "sig" },
				{ type: "text_start", contentIndex: 1 },
				{ type: "text_delta", contentIndex: 1, delta: "Reading " },
				{ type: "text_delta", contentIndex: 1, delta: "it." },
				{ type: "text_end", contentIndex: 1, content: "Reading it." },
				{ type: "toolcall_start", contentIndex: 2, id: "call-1", toolName: "read" },
				{ type: "toolcall_delta", contentIndex: 2, delta: '{"path":' },
				{ type: "toolcall_delta", contentIndex: 2, delta: '"a.ts"}' },
				{
					type: "toolcall_end",
					contentIndex: 2,
					toolCall: { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.ts" } },
				},
				{
					type: "done",
					reason: "toolUse",
					usage,
					responseId: "resp-1",
					responseModel: "upstream-model",
					rewrite: {
						policyId: "p",
						policyVersion: 2,
						changed: true,
						tokenCountChange: -40,
						messageCountChange: 0,
						systemPromptChanged: false,
					},
				},
			),
		});
		const { events, message } = await collect(
			piMessagesApi().streamSimple(piModel(server), transcript({ tools: [readTool] }), {
				apiKey: API_KEY,
				reasoning: "high",
				sessionId: "s-1",
				debug: true,
			} as never),
		);
		expect(message).toMatchObject({
			stopReason: "toolUse",
			usage,
			responseId: "resp-1",
			responseModel: "upstream-model",
			content: [
				{ type: "thinking", thinking: "Let me look.", thinkingSignature: "sig" },
				{ type: "text", text: "Reading it." },
				{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.ts" } },
			],
			diagnostics: [{ type: "pi_messages_rewrite", details: { policyId: "p", tokenCountChange: -40 } }],
		});
		expect(events.filter((event) => event.type === "toolcall_delta")).toHaveLength(2);
		const request = server.requests[0]!;
		expect(request.path).toBe("/v1/messages?debug=1");
		expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(request.headers.accept).toBe("text/event-stream");
		expect(body(request)).toMatchObject({
			model: "gateway-model",
			context: {
				messages: [
					{ role: "system", toolsAdded: [{ name: "read" }] },
					{ role: "user", content: "Hello" },
				],
			},
			options: { reasoning: "high", sessionId: "s-1" },
		});
	});

	it("a backend error event ends the stream with its message and usage", async () => {
		const server = await mockServer();
		server.enqueue({
			raw: frames({ type: "start" }, { type: "error", reason: "error", usage, errorMessage: "upstream overloaded" }),
		});
		const { message } = await collect(piMessagesApi().stream(piModel(server), transcript(), { apiKey: API_KEY }));
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "upstream overloaded", usage });
	});

	it("ends at the final event even when the backend keeps the connection open", async () => {
		const server = await mockServer();
		let cancelled!: () => void;
		const hungUp = new Promise<void>((resolve) => {
			cancelled = resolve;
		});
		// A body that sends `start` and `done`, then stays open until the reader cancels it.
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(
					new TextEncoder().encode(frames({ type: "start" }, { type: "done", reason: "stop", usage }).join("")),
				);
			},
			cancel: () => cancelled(),
		});
		const fetch = async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
		const { message } = await collect(
			piMessagesApi().stream(piModel(server), transcript(), { apiKey: API_KEY, fetch }),
		);
		expect(message).toMatchObject({ stopReason: "stop", usage });
		await hungUp;
	});

	it("reports HTTP errors with the backend's message and code, and malformed streams", async () => {
		const server = await mockServer();
		server.enqueue(
			{
				raw: [JSON.stringify({ error: { message: "model not allowed", code: "policy_denied" } })],
				status: 403,
				headers: { "content-type": "application/json" },
			},
			{ raw: frames({ type: "start" }, { type: "text_start", contentIndex: 0 }) },
			{ raw: frames({ type: "text_start", contentIndex: 5 }) },
		);
		const model = piModel(server);
		const denied = await collect(piMessagesApi().stream(model, transcript(), { apiKey: API_KEY }));
		expect(denied.message.errorMessage).toBe("403 Forbidden: model not allowed (policy_denied)");
		const cut = await collect(piMessagesApi().stream(model, transcript(), { apiKey: API_KEY }));
		expect(cut.message).toMatchObject({
			stopReason: "error",
			errorMessage: "radius stream ended without a terminal event",
		});
		const invalid = await collect(piMessagesApi().stream(model, transcript(), { apiKey: API_KEY }));
		expect(invalid.message.errorMessage).toBe("Invalid contentIndex 5 in pi-messages text_start event");
		const keyless = await collect(piMessagesApi().stream(model, transcript()));
		expect(keyless.message.errorMessage).toBe('No API key provided for provider "radius"');
		expect(server.requests).toHaveLength(3);
	});

	it("is a built-in API of the compat registry", () => {
		expect(getApiProviders().map((provider) => provider.api)).toContain("pi-messages");
	});
});

const stream = (server: MockLlmServer, context = transcript(), options: Record<string, unknown> = {}) =>
	piMessagesApi().stream(piModel(server, "/pi/v1"), context, { apiKey: API_KEY, ...options });

describe("pi-messages against the testkit backend", () => {
	it("streams thinking, text and a tool call whose arguments arrive in pieces", async () => {
		const server = await mockServer();
		server.enqueue({
			thinking: { text: "Look at the file first.", signature: "sig-1" },
			text: "Reading it.",
			toolCalls: [{ id: "call-1", name: "read", arguments: { path: "src/a.ts" }, chunkSize: 4 }],
		});
		const { events, message } = await collect(stream(server, transcript({ tools: [readTool] })));
		expect(message).toMatchObject({
			stopReason: "toolUse",
			api: "pi-messages",
			content: [
				{ type: "thinking", thinking: "Look at the file first.", thinkingSignature: "sig-1" },
				{ type: "text", text: "Reading it." },
				{ type: "toolCall", id: "call-1", name: "read", arguments: { path: "src/a.ts" } },
			],
		});
		expect(events.filter((event) => event.type === "toolcall_delta").length).toBeGreaterThan(2);
		expect(events.filter((event) => event.type === "thinking_delta").length).toBeGreaterThan(0);
		expect(server.requests[0]!.path).toBe("/pi/v1/messages");
		expect(body(server.requests[0])).toMatchObject({
			model: "gateway-model",
			context: { messages: [{ role: "system", toolsAdded: [{ name: "read" }] }, { role: "user" }] },
		});
	});

	it("takes usage and cost from the backend", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok", usage: { input: 1000, output: 200, cacheRead: 4000, cacheWrite: 500 } });
		const { message } = await collect(stream(server));
		expect(message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 4000, cacheWrite: 500 });
		expect(message.usage.totalTokens).toBe(5700);
		// The gateway prices the request, not the model's catalog entry.
		expect(message.usage.cost.output).toBeCloseTo((PI_MESSAGES_PRICES.output * 200) / 1e6);
		expect(message.usage.cost.total).toBeCloseTo(
			(1000 * PI_MESSAGES_PRICES.input +
				200 * PI_MESSAGES_PRICES.output +
				4000 * PI_MESSAGES_PRICES.cacheRead +
				500 * PI_MESSAGES_PRICES.cacheWrite) /
				1e6,
		);
		expect(message.responseId).toMatch(/^resp_mock_/);
	});

	it("sends images in pi's own message form", async () => {
		const server = await mockServer();
		server.enqueue({ text: "A red dot." });
		const { message } = await collect(stream(server, imageTranscript()));
		expect(message.stopReason).toBe("stop");
		const sent = body(server.requests[0]) as { context: { messages: { content: unknown }[] } };
		expect(sent.context.messages.at(-1)!.content).toContainEqual({
			type: "image",
			data: "iVBORw0KGgo=",
			mimeType: "image/png",
		});
	});

	it("a backend error mid-stream ends the message with its text so far and the error", async () => {
		const server = await mockServer();
		server.enqueue({ text: "partial words", stopReason: "error", error: { message: "Upstream overloaded" } });
		const { message } = await collect(stream(server));
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "Upstream overloaded" });
		expect(texts(message)).toBe("partial words");
	});

	it("a connection cut mid-stream is an error that keeps what arrived", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 200 }, fault: { kind: "disconnect", afterBytes: 600 } });
		const { message } = await collect(stream(server));
		expect(message.stopReason).toBe("error");
		expect(texts(message).length).toBeGreaterThan(0);
	});

	it("aborts mid-stream with stopReason aborted, keeping partial content", async () => {
		const server = await mockServer();
		server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 3000 } });
		const controller = new AbortController();
		const events: AssistantMessageEvent[] = [];
		const running = stream(server, transcript(), { signal: controller.signal });
		for await (const event of running) {
			events.push(event);
			if (event.type === "text_delta") controller.abort();
		}
		const message = await running.result();
		expect(message.stopReason).toBe("aborted");
		expect(texts(message).length).toBeGreaterThan(0);
		expect(events.at(-1)?.type).toBe("error");
	});

	it("a rejected key is an error event with the backend's message", async () => {
		const server = await mockServer();
		const { message } = await collect(stream(server, transcript(), { apiKey: "wrong" }));
		expect(message).toMatchObject({ stopReason: "error", errorMessage: "401 Unauthorized: Invalid credentials" });
	});
});

describe("pi-messages hand-off", () => {
	const first: Context = {
		tools: [readTool],
		messages: [{ role: "user", content: "What do my notes say?", timestamp: 1 }],
	};
	const withResult = (answer: AssistantMessage): Context => {
		const call = answer.content.find((block): block is ToolCall => block.type === "toolCall")!;
		return {
			tools: [readTool],
			messages: [
				...first.messages,
				answer,
				{
					role: "toolResult",
					toolCallId: call.id,
					toolName: "read",
					content: [{ type: "text", text: "remember the milk" }],
					isError: false,
					timestamp: 3,
				},
			],
		};
	};
	const scripted = {
		thinking: { text: "Read the notes", signature: "sig-src" },
		toolCalls: [{ id: "call_src_1", name: "read", arguments: { path: "notes.md" } }],
	};

	it("carries an Anthropic transcript to the gateway as pi's messages, tool call and result included", async () => {
		const anthropic = await mockServer();
		anthropic.enqueue(scripted);
		const api = "anthropic-messages";
		const answer = (
			await collect(
				wireApi(api).stream(wireModel(api, anthropic, { reasoning: true }), normalizeContext(first), {
					apiKey: API_KEY,
				}),
			)
		).message;
		const gateway = await mockServer();
		gateway.enqueue({ text: "Your notes say: remember the milk." });
		const reply = await collect(stream(gateway, normalizeContext(withResult(answer))));
		expect(reply.message.stopReason).toBe("stop");
		const sent = body(gateway.requests[0]) as { context: { messages: Record<string, unknown>[] } };
		expect(sent.context.messages.slice(-2)).toMatchObject([
			{
				role: "assistant",
				api: "anthropic-messages",
				content: [{ type: "thinking" }, { type: "toolCall", name: "read", arguments: { path: "notes.md" } }],
			},
			{ role: "toolResult", toolCallId: "call_src_1", content: [{ text: "remember the milk" }] },
		]);
	});

	it("carries a gateway transcript on to Anthropic, dropping the gateway model's thinking", async () => {
		const gateway = await mockServer();
		gateway.enqueue(scripted);
		const answer = (await collect(stream(gateway, normalizeContext(first)))).message;
		expect(answer.stopReason).toBe("toolUse");
		const anthropic = await mockServer();
		anthropic.enqueue({ text: "Your notes say: remember the milk." });
		const api = "anthropic-messages";
		const reply = await collect(
			wireApi(api).stream(wireModel(api, anthropic), normalizeContext(withResult(answer)), { apiKey: API_KEY }),
		);
		expect(reply.message.stopReason).toBe("stop");
		const sent = anthropic.requests[0]!.rawBody;
		expect(sent).toContain('"notes.md"');
		expect(sent).toContain("remember the milk");
		expect(sent).not.toContain("Read the notes");
	});
});
