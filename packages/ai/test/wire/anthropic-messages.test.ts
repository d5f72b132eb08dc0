import Anthropic from "@anthropic-ai/sdk";
import type { AnthropicOptions, AssistantMessage, Message, Tool, ToolResultMessage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import * as anthropic from "../../src/api/anthropic-messages/index.js";
import {
	API_KEY,
	assistantMessage,
	body,
	collect,
	mockServer,
	texts,
	transcript,
	wireApi,
	wireModel,
} from "./wire-harness.js";

const api = "anthropic-messages";
const tools: Tool[] = [
	{
		name: "read",
		description: "Read a file",
		parameters: { type: "object", properties: { path: { type: "string" } } },
	},
	{ name: "ls", description: "List files", parameters: { type: "object", properties: {} } },
];

type Json = Record<string, unknown>;
type WireMessage = { role: string; content: string | Json[] };

function assistant(content: AssistantMessage["content"]): AssistantMessage {
	return assistantMessage(api, content);
}

function toolResult(id: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId: id, toolName: "read", content, isError, timestamp: 3 };
}

async function send(options: AnthropicOptions, messages?: Message[], systemPrompt = "You are terse.") {
	const server = await mockServer();
	server.enqueue({ text: "ok" });
	const context = transcript({ systemPrompt, tools, ...(messages ? { messages } : {}) });
	const result = await collect(
		wireApi(api).stream(wireModel(api, server, { reasoning: true }), context, { apiKey: API_KEY, ...options }),
	);
	return { ...result, request: body(server.requests[0]), headers: server.requests[0]?.headers ?? {} };
}

describe("anthropic-messages payload", () => {
	it("puts the system prompt in `system` and cache markers on system, last tool and last user block", async () => {
		const { request } = await send({});
		expect(request.system).toEqual([{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
		const sentTools = request.tools as Json[];
		expect(sentTools.map((t) => t.name)).toEqual(["read", "ls"]);
		expect(sentTools[0]?.cache_control).toBeUndefined();
		expect(sentTools[1]?.cache_control).toEqual({ type: "ephemeral" });
		expect(sentTools[0]?.input_schema).toEqual({
			type: "object",
			properties: { path: { type: "string" } },
			required: [],
		});
		expect(sentTools[0]?.eager_input_streaming).toBe(true);
		const messages = request.messages as WireMessage[];
		expect(messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Hello", cache_control: { type: "ephemeral" } }] },
		]);
	});

	it("cacheRetention none removes every marker; long adds a 1h ttl", async () => {
		const none = JSON.stringify((await send({ cacheRetention: "none" })).request);
		expect(none).not.toContain("cache_control");
		const long = (await send({ cacheRetention: "long" })).request;
		expect((long.system as Json[])[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
	});

	it("TAU_CACHE_RETENTION=long in the request env selects the 1h ttl", async () => {
		const { request } = await send({ env: { TAU_CACHE_RETENTION: "long" } });
		expect((request.system as Json[])[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
	});

	it("uses a pre-built client as given, without its own auth check", async () => {
		const server = await mockServer();
		server.enqueue({ text: "from the host's client" });
		const client = new Anthropic({
			apiKey: null,
			authToken: null,
			baseURL: server.baseUrl,
			defaultHeaders: { "x-api-key": API_KEY, "anthropic-beta": "host-beta" },
			maxRetries: 0,
		});
		const options: AnthropicOptions = { client };
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), options));
		expect(message.stopReason).toBe("stop");
		expect(texts(message)).toBe("from the host's client");
		expect(server.requests[0]?.headers["anthropic-beta"]).toBe("host-beta");
	});

	it("batches consecutive tool results into one user message and moves error-result images after them", async () => {
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const messages: Message[] = [
			{ role: "user", content: "Look", timestamp: 1 },
			assistant([
				{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } },
				{ type: "toolCall", id: "toolu_2", name: "read", arguments: { path: "b" } },
			]),
			toolResult("toolu_1", [{ type: "text", text: "contents of a" }]),
			toolResult("toolu_2", [{ type: "text", text: "failed" }, image], true),
		];
		const { request } = await send({ cacheRetention: "none" }, messages);
		const sent = request.messages as WireMessage[];
		expect(sent).toHaveLength(3);
		expect(sent[2]?.role).toBe("user");
		expect(sent[2]?.content).toEqual([
			{ type: "tool_result", tool_use_id: "toolu_1", content: "contents of a", is_error: false },
			{
				type: "tool_result",
				tool_use_id: "toolu_2",
				content: "failed\n(image attached after the tool results)",
				is_error: true,
			},
			{ type: "text", text: "Images from the error result of tool call toolu_2 (read):" },
			{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
		]);
	});

	it("replays signed thinking, redacted thinking and unsigned thinking as text", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Q", timestamp: 1 },
			{
				...assistant([
					{ type: "thinking", thinking: "step", thinkingSignature: "sig-1" },
					{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "opaque", redacted: true },
					{ type: "thinking", thinking: "loose thought" },
					{ type: "text", text: "Answer" },
				]),
				stopReason: "stop",
			},
			{ role: "user", content: "More", timestamp: 4 },
		];
		const { request } = await send({}, messages);
		const sent = request.messages as WireMessage[];
		expect(sent[1]?.content).toEqual([
			{ type: "thinking", thinking: "step", signature: "sig-1" },
			{ type: "redacted_thinking", data: "opaque" },
			{ type: "text", text: "loose thought" },
			{ type: "text", text: "Answer" },
		]);
	});

	it("thinking: disabled, enabled with a budget, and adaptive with effort; temperature only without thinking", async () => {
		const disabled = (await send({ thinkingEnabled: false, temperature: 0.3 })).request;
		expect(disabled.thinking).toEqual({ type: "disabled" });
		expect(disabled.temperature).toBe(0.3);

		const budget = await send({ thinkingEnabled: true, thinkingBudgetTokens: 4000, temperature: 0.3 });
		expect(budget.request.thinking).toEqual({ type: "enabled", budget_tokens: 4000, display: "summarized" });
		expect(budget.request.temperature).toBeUndefined();
		expect(budget.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");

		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const adaptiveModel = wireModel(api, server, { reasoning: true, compat: { forceAdaptiveThinking: true } });
		const adaptiveOptions: AnthropicOptions = { apiKey: API_KEY, thinkingEnabled: true, effort: "high" };
		await collect(wireApi(api).stream(adaptiveModel, transcript(), adaptiveOptions));
		expect(body(server.requests[0]).thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(body(server.requests[0]).output_config).toEqual({ effort: "high" });
		expect(server.requests[0]?.headers["anthropic-beta"]).toBeUndefined();
	});

	it("an explicit anthropic-beta header overrides the computed list; null sends none", async () => {
		const explicit = await send({ thinkingEnabled: true, headers: { "Anthropic-Beta": "a-1, b-2,a-1" } });
		expect(explicit.headers["anthropic-beta"]).toBe("a-1,b-2");
		const suppressed = await send({ thinkingEnabled: true, headers: { "anthropic-beta": null } });
		expect(suppressed.headers["anthropic-beta"]).toBeUndefined();
	});

	it("sends metadata.user_id, tool_choice, and the default headers", async () => {
		const { request, headers } = await send({ metadata: { user_id: "u-1", other: 1 }, toolChoice: "any" });
		expect(request.metadata).toEqual({ user_id: "u-1" });
		expect(request.tool_choice).toEqual({ type: "any" });
		expect(headers["x-api-key"]).toBe(API_KEY);
		expect(headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
		expect(headers["user-agent"]).toMatch(/^tau\//);
	});

	it("session affinity header only where enabled and only when caching is on", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" });
		const plain = wireModel(api, server);
		const openRouterStyle = wireModel(api, server, {
			compat: { sendSessionAffinityHeaders: true, sessionAffinityFormat: "openrouter" },
		});
		await collect(wireApi(api).stream(plain, transcript(), { apiKey: API_KEY, sessionId: "s-1" }));
		await collect(wireApi(api).stream(openRouterStyle, transcript(), { apiKey: API_KEY, sessionId: "s-1" }));
		await collect(
			wireApi(api).stream(openRouterStyle, transcript(), {
				apiKey: API_KEY,
				sessionId: "s-1",
				cacheRetention: "none",
			}),
		);
		expect(server.requests[0]?.headers["x-session-affinity"]).toBeUndefined();
		expect(server.requests[1]?.headers["x-session-id"]).toBe("s-1");
		expect(server.requests[2]?.headers["x-session-id"]).toBeUndefined();
	});

	it("streamSimple maps reasoning levels to a token budget or an adaptive effort", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" });
		const budgetModel = wireModel(api, server, { reasoning: true, maxTokens: 32_000 });
		await collect(
			anthropic.streamSimple(budgetModel, transcript(), { apiKey: API_KEY, reasoning: "medium", maxTokens: 4000 }),
		);
		expect(body(server.requests[0]).thinking).toEqual({
			type: "enabled",
			budget_tokens: 8192,
			display: "summarized",
		});
		expect(body(server.requests[0]).max_tokens).toBe(12_192);

		const adaptive = wireModel(api, server, { reasoning: true, compat: { forceAdaptiveThinking: true } });
		await collect(anthropic.streamSimple(adaptive, transcript(), { apiKey: API_KEY, reasoning: "minimal" }));
		expect(body(server.requests[1]).output_config).toEqual({ effort: "low" });

		await collect(anthropic.streamSimple(budgetModel, transcript(), { apiKey: API_KEY }));
		expect(body(server.requests[2]).thinking).toEqual({ type: "disabled" });
	});
});

describe("anthropic-messages stream mapping", () => {
	it.each([
		["stop", "stop", "end_turn"],
		["stopSequence", "stop", "stop_sequence"],
		["pauseTurn", "stop", "pause_turn"],
		["length", "length", "max_tokens"],
		["toolUse", "toolUse", "tool_use"],
	] as const)("maps %s to %s", async (mock, expected, raw) => {
		const server = await mockServer();
		server.enqueue({ text: "x", stopReason: mock });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe(expected);
		expect(message.rawStopReason).toBe(raw);
	});

	it("a refusal is an error carrying the provider's explanation, or a default text", async () => {
		const server = await mockServer();
		server.enqueue(
			{ text: "I", stopReason: "refusal", refusal: "Not going to help with that." },
			{ text: "I", stopReason: "refusal" },
		);
		const first = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(first.message.stopReason).toBe("error");
		expect(first.message.errorMessage).toBe("Not going to help with that.");
		const second = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(second.message.errorMessage).toBe("The model refused to complete the request");
	});

	it("sensitive and unknown stop reasons are errors", async () => {
		const server = await mockServer();
		server.enqueue(
			{ text: "x", rawStopReason: "sensitive" },
			{ text: "x", rawStopReason: "model_context_window_exceeded" },
		);
		const sensitive = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(sensitive.message.errorMessage).toBe("Provider stopped with: sensitive");
		const unknown = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(unknown.message.stopReason).toBe("error");
		expect(unknown.message.errorMessage).toBe("Unhandled stop reason: model_context_window_exceeded");
	});

	it("streams thinking with its accumulated signature and redacted thinking as a complete block", async () => {
		const server = await mockServer();
		server.enqueue({
			thinking: { text: "Let me think", signature: "sig-abc" },
			redactedThinking: "ENCRYPTED",
			text: "Done",
		});
		const { events, message } = await collect(
			wireApi(api).stream(wireModel(api, server, { reasoning: true }), transcript(), { apiKey: API_KEY }),
		);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think", thinkingSignature: "sig-abc" },
			{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "ENCRYPTED", redacted: true },
			{ type: "text", text: "Done" },
		]);
		expect(events.filter((e) => e.type === "thinking_delta" && e.contentIndex === 1)).toHaveLength(0);

		server.enqueue({ text: "again" });
		const replay = transcript({
			messages: [
				{ role: "user", content: "Q", timestamp: 1 },
				message,
				{ role: "user", content: "Next", timestamp: 5 },
			],
		});
		await collect(wireApi(api).stream(wireModel(api, server, { reasoning: true }), replay, { apiKey: API_KEY }));
		const sent = body(server.requests[1]).messages as WireMessage[];
		expect(sent[1]?.content).toEqual([
			{ type: "thinking", thinking: "Let me think", signature: "sig-abc" },
			{ type: "redacted_thinking", data: "ENCRYPTED" },
			{ type: "text", text: "Done" },
		]);
	});

	it("usage from message_start survives an abort before message_delta, with cache and 1h writes", async () => {
		const server = await mockServer();
		server.enqueue({
			text: { tokens: 400 },
			usage: { input: 100, cacheRead: 50, cacheWrite: 30, cacheWrite1h: 10 },
			fault: { kind: "stall", afterBytes: 3000 },
		});
		const controller = new AbortController();
		const stream = wireApi(api).stream(wireModel(api, server), transcript(), {
			apiKey: API_KEY,
			signal: controller.signal,
		});
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.usage).toMatchObject({ input: 100, cacheRead: 50, cacheWrite: 30, cacheWrite1h: 10 });
		expect(message.usage.cost.cacheWrite).toBeCloseTo((3.75 * 20 + 3 * 2 * 10) / 1e6);
		expect(message.usage.cost.total).toBeGreaterThan(0);
		expect(texts(message).length).toBeGreaterThan(0);
	});

	it("accumulates signature deltas into one thinking signature", async () => {
		const server = await mockServer();
		const frame = (data: Json) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
		const usage = { input_tokens: 5, output_tokens: 1 };
		server.enqueue({
			raw: [
				frame({
					type: "message_start",
					message: { id: "msg_1", type: "message", role: "assistant", model: "mock-model", content: [], usage },
				}),
				frame({
					type: "content_block_start",
					index: 0,
					content_block: { type: "thinking", thinking: "", signature: "" },
				}),
				frame({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } }),
				frame({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "part1-" } }),
				frame({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "part2" } }),
				frame({ type: "content_block_stop", index: 0 }),
				frame({
					type: "message_delta",
					delta: { stop_reason: "end_turn", stop_sequence: null },
					usage: { output_tokens: 7 },
				}),
				frame({ type: "message_stop" }),
			],
		});
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.content).toEqual([{ type: "thinking", thinking: "hm", thinkingSignature: "part1-part2" }]);
		expect(message.usage).toMatchObject({ input: 5, output: 7, totalTokens: 12 });
		expect(message.responseId).toBe("msg_1");
	});

	it("reports reasoning tokens from output_tokens_details", async () => {
		const server = await mockServer();
		server.enqueue({ thinking: "hmm", text: "ok", usage: { output: 40, reasoning: 25 } });
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.usage.output).toBe(40);
		expect(message.usage.reasoning).toBe(25);
	});
});
