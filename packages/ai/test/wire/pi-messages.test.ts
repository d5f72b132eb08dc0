import type { Api, Model } from "@tau/ai";
import { getApiProviders, piMessagesApi } from "@tau/ai/compat";
import { type MockLlmServer, sseFrame } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { API_KEY, body, collect, mockServer, readTool, transcript } from "./wire-harness.js";

function piModel(server: MockLlmServer): Model<Api> {
	return {
		id: "gateway-model",
		name: "Gateway model",
		api: "pi-messages",
		provider: "radius",
		baseUrl: `${server.url("/v1")}/`,
		input: ["text"],
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
