import type { Api, AssistantMessage, AssistantMessageEvent, Context, Model, ToolCall } from "@tau/ai";
import { normalizeContext } from "@tau/ai";
import { piMessagesApi } from "@tau/ai/compat";
import { type MockLlmServer, PI_MESSAGES_PRICES } from "@tau/testkit";
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

/** pi-messages against @tau/testkit's backend of the protocol (served under `/pi`). */

function gatewayModel(server: MockLlmServer): Model<Api> {
	return {
		id: "balanced",
		name: "Balanced",
		api: "pi-messages",
		provider: "radius",
		baseUrl: server.url("/pi/v1"),
		input: ["text", "image"],
		reasoning: true,
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
}

const stream = (server: MockLlmServer, context = transcript(), options: Record<string, unknown> = {}) =>
	piMessagesApi().stream(gatewayModel(server), context, { apiKey: API_KEY, ...options });

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
			model: "balanced",
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
