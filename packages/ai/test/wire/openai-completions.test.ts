import type {
	Api,
	AssistantMessage,
	Message,
	Model,
	OpenAICompletionsCompat,
	OpenAICompletionsOptions,
	ReasoningEffort,
	ThinkingLevelMap,
	Tool,
	ToolCall,
} from "@tau/ai";
import type { MockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import * as completions from "../../src/api/openai-completions/index.js";
import {
	API_KEY,
	assistantMessage,
	body,
	collect,
	mockServer,
	readTool,
	texts,
	transcript,
	wireApi,
	wireModel,
} from "./wire-harness.js";

const api = "openai-completions";
type Json = Record<string, unknown>;

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantMessage(api, content, extra);
}

interface Sent {
	request: Json;
	headers: Record<string, string>;
	server: MockLlmServer;
}

/** Sends one request with a scripted "ok" reply and returns what the server received. */
async function sent(
	overrides: Partial<Model<Api>> & { compat?: OpenAICompletionsCompat } = {},
	options: OpenAICompletionsOptions = {},
	messages?: Message[],
	tools?: Tool[],
): Promise<Sent> {
	const server = await mockServer();
	server.enqueue({ text: "ok" });
	const model = wireModel(api, server, overrides);
	const context = transcript({
		systemPrompt: "Be brief.",
		...(tools ? { tools } : {}),
		...(messages ? { messages } : {}),
	});
	const { message } = await collect(wireApi(api).stream(model, context, { apiKey: API_KEY, ...options }));
	expect(message.stopReason).toBe("stop");
	return { request: body(server.requests[0]), headers: server.requests[0]?.headers ?? {}, server };
}

/** Chat Completions SSE text from chunk objects, ending with `[DONE]`. */
function chatSse(chunks: Json[]): string[] {
	const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "mock-model" };
	return [...chunks.map((chunk) => `data: ${JSON.stringify({ ...base, ...chunk })}\n\n`), "data: [DONE]\n\n"];
}

function choice(delta: Json, finish: string | null = null): Json {
	return { choices: [{ index: 0, delta, finish_reason: finish }] };
}

async function streamRaw(raw: string[], overrides: Partial<Model<Api>> = {}) {
	const server = await mockServer();
	server.enqueue({ raw });
	return collect(wireApi(api).stream(wireModel(api, server, overrides), transcript(), { apiKey: API_KEY }));
}

/** The id of the first tool call of the assistant message at position 2 (after system and user). */
function firstToolCallId(request: Json): string {
	const calls = ((request.messages as Json[])[2]?.tool_calls ?? []) as { id: string }[];
	return calls[0]?.id ?? "";
}

describe("openai-completions payload", () => {
	it("uses the developer role only for reasoning models on OpenAI, else system", async () => {
		const openai = await sent({ provider: "openai", reasoning: true });
		expect((openai.request.messages as Json[])[0]).toEqual({ role: "developer", content: "Be brief." });
		const other = await sent({ reasoning: true });
		expect((other.request.messages as Json[])[0]).toEqual({ role: "system", content: "Be brief." });
		const flagged = await sent({ reasoning: true, compat: { supportsDeveloperRole: true } });
		expect((flagged.request.messages as Json[])[0]?.role).toBe("developer");
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" });
		const byUrl = wireModel(api, server, { reasoning: true, baseUrl: `${server.url("/v1")}?host=api.openai.com` });
		await collect(wireApi(api).stream(byUrl, transcript({ systemPrompt: "S" }), { apiKey: API_KEY }));
		expect((body(server.requests[0]).messages as Json[])[0]?.role).toBe("developer");
		const optedOut = { ...byUrl, compat: { supportsDeveloperRole: false } };
		await collect(wireApi(api).stream(optedOut, transcript({ systemPrompt: "S" }), { apiKey: API_KEY }));
		expect((body(server.requests[1]).messages as Json[])[0]?.role).toBe("system");
	});

	it("sends max_completion_tokens by default, max_tokens per compat, stream usage and store:false", async () => {
		const standard = (await sent({}, { maxTokens: 500, temperature: 0.2 })).request;
		expect(standard.max_completion_tokens).toBe(500);
		expect(standard.max_tokens).toBeUndefined();
		expect(standard.temperature).toBe(0.2);
		expect(standard.stream_options).toEqual({ include_usage: true });
		expect(standard.store).toBe(false);
		const deepseek = (await sent({ provider: "deepseek" }, { maxTokens: 500 })).request;
		expect(deepseek.max_tokens).toBe(500);
		expect(deepseek.store).toBeUndefined();
		const noUsage = (await sent({ compat: { supportsUsageInStreaming: false, supportsStore: false } })).request;
		expect(noUsage.stream_options).toBeUndefined();
		expect(noUsage.store).toBeUndefined();
	});

	const thinkingCases: [
		OpenAICompletionsCompat["thinkingFormat"],
		ThinkingLevelMap | undefined,
		ReasoningEffort | undefined,
		Json,
	][] = [
		["openai", undefined, "high", { reasoning_effort: "high" }],
		["openai", { off: "none" }, undefined, { reasoning_effort: "none" }],
		["openai", undefined, undefined, {}],
		["openrouter", { high: "max-ish" }, "high", { reasoning: { effort: "max-ish" } }],
		["openrouter", undefined, undefined, { reasoning: { effort: "none" } }],
		["deepseek", undefined, "high", { thinking: { type: "enabled" }, reasoning_effort: "high" }],
		["deepseek", undefined, undefined, { thinking: { type: "disabled" } }],
		["zai", undefined, "low", { thinking: { type: "enabled", clear_thinking: false }, reasoning_effort: "low" }],
		["zai", undefined, undefined, { thinking: { type: "disabled" } }],
		["qwen", undefined, "medium", { enable_thinking: true, reasoning_effort: "medium" }],
		["qwen", undefined, undefined, { enable_thinking: false }],
		[
			"qwen-chat-template",
			undefined,
			"low",
			{ chat_template_kwargs: { enable_thinking: true, preserve_thinking: true } },
		],
		[
			"qwen-chat-template",
			undefined,
			undefined,
			{ chat_template_kwargs: { enable_thinking: false, preserve_thinking: true } },
		],
		["together", undefined, "low", { reasoning: { enabled: true }, reasoning_effort: "low" }],
		["together", undefined, undefined, { reasoning: { enabled: false } }],
		["string-thinking", undefined, "high", { thinking: "high" }],
		["string-thinking", undefined, undefined, { thinking: "none" }],
	];
	it.each(thinkingCases)(
		"thinkingFormat %s with map %j and effort %s",
		async (thinkingFormat, map, effort, expected) => {
			const { request } = await sent(
				{ reasoning: true, ...(map ? { thinkingLevelMap: map } : {}), compat: { thinkingFormat } },
				effort ? { reasoningEffort: effort } : {},
			);
			const reasoningKeys = ["reasoning_effort", "reasoning", "thinking", "enable_thinking", "chat_template_kwargs"];
			const actual = Object.fromEntries(
				reasoningKeys.filter((key) => key in request).map((key) => [key, request[key]]),
			);
			expect(actual).toEqual(expected);
		},
	);

	it("never sends reasoning fields for non-reasoning models", async () => {
		const { request } = await sent({ compat: { thinkingFormat: "deepseek" } }, { reasoningEffort: "high" });
		expect(request.thinking).toBeUndefined();
		expect(request.reasoning_effort).toBeUndefined();
	});

	it("chat-template kwargs resolve $var references and the token budget field", async () => {
		const compat: OpenAICompletionsCompat = {
			thinkingFormat: "chat-template",
			chatTemplateKwargs: {
				fixed: "x",
				on: { $var: "thinking.enabled" },
				effort: { $var: "thinking.effort", omitWhenOff: true },
				budget: { $var: "thinking.budget" },
			},
			thinkingTokenBudgetField: "thinking_budget_tokens",
		};
		const on = (await sent({ reasoning: true, compat }, { reasoningEffort: "low", maxTokens: 10_000 })).request;
		expect(on.chat_template_kwargs).toEqual({ fixed: "x", on: true, effort: "low", budget: 2048 });
		expect(on.thinking_budget_tokens).toBe(2048);
		const off = (await sent({ reasoning: true, compat })).request;
		expect(off.chat_template_kwargs).toEqual({ fixed: "x", on: false, budget: 0 });
		expect(off.thinking_budget_tokens).toBeUndefined();
		const tight = (
			await sent(
				{ reasoning: true, compat: { supportsThinkingTokenBudget: true } },
				{ reasoningEffort: "high", maxTokens: 3000 },
			)
		).request;
		expect(tight.thinking_token_budget).toBe(1976);
	});

	it("prompt caching: cache key for OpenAI or long retention, 24h retention, none drops the session id", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" }, { text: "ok" }, { text: "ok" });
		const apiOpenAI = wireModel(api, server, { baseUrl: `${server.url("/v1")}?host=api.openai.com` });
		const plain = wireModel(api, server);
		const longId = "s".repeat(70);
		await collect(wireApi(api).stream(apiOpenAI, transcript(), { apiKey: API_KEY, sessionId: longId }));
		await collect(wireApi(api).stream(plain, transcript(), { apiKey: API_KEY, sessionId: "s-2" }));
		await collect(
			wireApi(api).stream(plain, transcript(), { apiKey: API_KEY, sessionId: "s-3", cacheRetention: "long" }),
		);
		await collect(
			wireApi(api).stream(apiOpenAI, transcript(), { apiKey: API_KEY, sessionId: "s-4", cacheRetention: "none" }),
		);
		expect(body(server.requests[0]).prompt_cache_key).toBe("s".repeat(64));
		expect(body(server.requests[1]).prompt_cache_key).toBeUndefined();
		expect(body(server.requests[2])).toMatchObject({ prompt_cache_key: "s-3", prompt_cache_retention: "24h" });
		expect(body(server.requests[3]).prompt_cache_key).toBeUndefined();
	});

	it("OpenRouter: affinity header, reasoning.effort, routing, attribution, and Anthropic cache markers", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const model = wireModel(api, server, {
			provider: "openrouter",
			id: "anthropic/claude-x",
			reasoning: true,
			compat: { openRouterRouting: { order: ["anthropic"] } },
		});
		const context = transcript({ systemPrompt: "Sys", tools: [readTool] });
		await collect(
			wireApi(api).stream(model, context, {
				apiKey: API_KEY,
				sessionId: "sess",
				identity: { attribution: { name: "tau", url: "https://example.test", categories: ["cli-agent"] } },
			}),
		);
		const request = body(server.requests[0]);
		const headers = server.requests[0]?.headers ?? {};
		expect(headers["x-session-id"]).toBe("sess");
		expect(headers["http-referer"]).toBe("https://example.test");
		expect(headers["x-openrouter-title"]).toBe("tau");
		expect(request.reasoning).toEqual({ effort: "none" });
		expect(request.provider).toEqual({ order: ["anthropic"] });
		const messages = request.messages as Json[];
		expect(messages[0]).toEqual({
			role: "system",
			content: [{ type: "text", text: "Sys", cache_control: { type: "ephemeral" } }],
		});
		expect(messages[1]).toEqual({
			role: "user",
			content: [{ type: "text", text: "Hello", cache_control: { type: "ephemeral" } }],
		});
		expect((request.tools as Json[])[0]?.cache_control).toEqual({ type: "ephemeral" });
	});

	it("session headers in openai format only when affinity headers are enabled", async () => {
		const on = await sent({ compat: { sendSessionAffinityHeaders: true } }, { sessionId: "abc" });
		expect(on.headers).toMatchObject({
			"x-client-request-id": "abc",
			"x-session-affinity": "abc",
			session_id: "abc",
		});
		const off = await sent({}, { sessionId: "abc" });
		expect(off.headers["x-session-affinity"]).toBeUndefined();
	});

	it("tools, tool_choice, strict mode, vllm priority, and sampling params merged last", async () => {
		const strictTool: Tool = {
			...readTool,
			name: "strict_read",
			constrainedSampling: { type: "json_schema", strict: "prefer" },
		};
		const { request } = await sent(
			{ compat: { supportsStrictMode: true, vllmPriority: 5 }, samplingParams: { top_p: 0.9 } },
			{ toolChoice: "required", samplingParams: { temperature: 0.1, top_k: 3 }, temperature: 0.7 },
			undefined,
			[readTool, strictTool],
		);
		const tools = request.tools as { function: Json }[];
		expect(tools[0]?.function).toMatchObject({ name: "read", strict: false });
		expect(tools[1]?.function).toMatchObject({ name: "strict_read", strict: true });
		expect(tools[1]?.function.parameters).toMatchObject({ additionalProperties: false });
		expect(request.tool_choice).toBe("required");
		expect(request.priority).toBe(5);
		expect(request.temperature).toBe(0.1);
		expect(request.top_k).toBe(3);
	});

	it("converts history: assistant text as a string, tool calls, tool results, images after results", async () => {
		const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
		const messages: Message[] = [
			{ role: "user", content: "Look", timestamp: 1 },
			assistant([
				{ type: "thinking", thinking: "consider", thinkingSignature: "reasoning_content" },
				{ type: "text", text: "Checking." },
				{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.png" } },
			]),
			{ role: "toolResult", toolCallId: "call_1", toolName: "read", content: [image], isError: false, timestamp: 3 },
			{ role: "user", content: "And?", timestamp: 4 },
		];
		const { request } = await sent({}, {}, messages);
		const sentMessages = request.messages as Json[];
		expect(sentMessages.slice(1)).toEqual([
			{ role: "user", content: "Look" },
			{
				role: "assistant",
				content: "Checking.",
				reasoning_content: "consider",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.png"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "(see attached image)" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Attached image(s) from tool result:" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
				],
			},
			{ role: "user", content: "And?" },
		]);
	});

	it("compat: tool result names, bridging assistant messages, non-null content, thinking as text, tools with history", async () => {
		const messages: Message[] = [
			{ role: "user", content: "Go", timestamp: 1 },
			assistant([
				{ type: "thinking", thinking: "plan", thinkingSignature: "reasoning" },
				{ type: "toolCall", id: "call_1", name: "read", arguments: {} },
			]),
			{ role: "toolResult", toolCallId: "call_1", toolName: "read", content: [], isError: false, timestamp: 3 },
			{ role: "user", content: "Next", timestamp: 4 },
		];
		const { request } = await sent(
			{
				compat: {
					requiresToolResultName: true,
					requiresAssistantAfterToolResult: true,
					requiresThinkingAsText: true,
					requiresToolsWithToolHistory: true,
				},
			},
			{},
			messages,
		);
		const sentMessages = (request.messages as Json[]).slice(1);
		expect(sentMessages[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "plan" }] });
		expect(sentMessages[2]).toEqual({
			role: "tool",
			tool_call_id: "call_1",
			content: "(no tool output)",
			name: "read",
		});
		expect(sentMessages[3]).toEqual({ role: "assistant", content: "I have processed the tool results." });
		expect(sentMessages[4]).toEqual({ role: "user", content: "Next" });
		expect(request.tools).toEqual([]);

		const deepseek = await sent({ provider: "deepseek", reasoning: true }, {}, [
			{ role: "user", content: "Go", timestamp: 1 },
			assistant([{ type: "text", text: "Done" }], { stopReason: "stop" }),
			{ role: "user", content: "Again", timestamp: 4 },
		]);
		expect((deepseek.request.messages as Json[])[2]).toEqual({
			role: "assistant",
			content: "Done",
			reasoning_content: "",
		});
	});

	it("compat: non-null assistant content, no reasoning_effort when unsupported, cache key modes, no long retention", async () => {
		const history: Message[] = [
			{ role: "user", content: "Go", timestamp: 1 },
			assistant([{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
			{
				role: "toolResult",
				toolCallId: "call_1",
				toolName: "read",
				content: [{ type: "text", text: "r" }],
				isError: false,
				timestamp: 3,
			},
		];
		const nonNull = await sent({ compat: { requiresNonNullAssistantContent: true } }, {}, history);
		expect((nonNull.request.messages as Json[])[2]?.content).toBe("");
		const nullable = await sent({}, {}, history);
		expect((nullable.request.messages as Json[])[2]?.content).toBeNull();
		const noEffort = await sent(
			{ reasoning: true, compat: { supportsReasoningEffort: false } },
			{ reasoningEffort: "high" },
		);
		expect(noEffort.request.reasoning_effort).toBeUndefined();
		const enabled = await sent({ compat: { promptCacheKeyMode: "enabled" } }, { sessionId: "k" });
		expect(enabled.request.prompt_cache_key).toBe("k");
		const disabled = await sent(
			{ compat: { promptCacheKeyMode: "disabled" } },
			{ sessionId: "k", cacheRetention: "long" },
		);
		expect(disabled.request.prompt_cache_key).toBeUndefined();
		const shortOnly = await sent(
			{ compat: { supportsLongCacheRetention: false } },
			{ sessionId: "k", cacheRetention: "long" },
		);
		expect(shortOnly.request.prompt_cache_retention).toBeUndefined();
		expect(shortOnly.request.prompt_cache_key).toBeUndefined();
	});

	it("replays reasoning_details from the thinking signature", async () => {
		const details = [{ type: "reasoning.encrypted", data: "ENC", index: 0 }];
		const { request } = await sent({ reasoning: true }, {}, [
			{ role: "user", content: "Go", timestamp: 1 },
			assistant(
				[
					{ type: "thinking", thinking: "", thinkingSignature: JSON.stringify(details) },
					{ type: "text", text: "A" },
				],
				{ stopReason: "stop" },
			),
			{ role: "user", content: "More", timestamp: 4 },
		]);
		expect((request.messages as Json[])[2]).toEqual({ role: "assistant", content: "A", reasoning_details: details });
	});

	it("shortens Responses-style call|item ids to at most 40 characters, deterministically, for call and result", async () => {
		const longId = `call_${"a".repeat(30)}|fc_${"b".repeat(40)}`;
		const foreign = assistant([{ type: "toolCall", id: longId, name: "read", arguments: {} }], {
			api: "openai-responses",
			provider: "openai",
			model: "gpt-x",
		});
		const history: Message[] = [
			{ role: "user", content: "Go", timestamp: 1 },
			foreign,
			{
				role: "toolResult",
				toolCallId: longId,
				toolName: "read",
				content: [{ type: "text", text: "r" }],
				isError: false,
				timestamp: 3,
			},
		];
		const first = await sent({}, {}, history);
		const second = await sent({}, {}, history);
		const callId = firstToolCallId(first.request);
		expect(callId.length).toBeLessThanOrEqual(40);
		expect(callId).toMatch(/^[a-zA-Z0-9_-]+$/);
		expect((first.request.messages as Json[])[3]?.tool_call_id).toBe(callId);
		expect(firstToolCallId(second.request)).toBe(callId);
		const short = await sent({}, {}, [
			history[0] as Message,
			{ ...foreign, content: [{ type: "toolCall", id: "call_1|fc_2", name: "read", arguments: {} }] },
			{ ...(history[2] as Message & { role: "toolResult" }), toolCallId: "call_1|fc_2" },
		]);
		expect(firstToolCallId(short.request)).toBe("call_1_fc_2");
	});

	it("streamSimple clamps the level into reasoningEffort and passes tool choice", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" }, { text: "ok" });
		const model = wireModel(api, server, { reasoning: true, thinkingLevelMap: { minimal: null } });
		await collect(
			completions.streamSimple(model, transcript(), { apiKey: API_KEY, reasoning: "minimal", toolChoice: "none" }),
		);
		expect(body(server.requests[0])).toMatchObject({ reasoning_effort: "low", tool_choice: "none" });
		await collect(completions.streamSimple(model, transcript(), { apiKey: API_KEY }));
		expect(body(server.requests[1]).reasoning_effort).toBeUndefined();
	});
});

describe("openai-completions stream mapping", () => {
	it("reasoning_content precedes text from the same chunk, and the field name becomes the signature", async () => {
		const { events, message } = await streamRaw(
			chatSse([choice({ role: "assistant", reasoning_content: "think", content: "say" }), choice({}, "stop")]),
		);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "think", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "say" },
		]);
		const order = events.map((e) => e.type);
		expect(order.indexOf("thinking_delta")).toBeLessThan(order.indexOf("text_delta"));
	});

	it("tool-call chunks are keyed by index and may carry id and name late", async () => {
		const { message } = await streamRaw(
			chatSse([
				choice({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
				choice({
					tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "ls", arguments: "{}" } }],
				}),
				choice({ tool_calls: [{ index: 0, id: "call_a", function: { name: "read", arguments: 'th":"x"}' } }] }),
				choice({}, "tool_calls"),
			]),
		);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "x" } },
			{ type: "toolCall", id: "call_b", name: "ls", arguments: {} },
		]);
	});

	it("usage: prompt_tokens_details.cached_tokens, prompt_cache_hit_tokens, top-level cached_tokens, billed cost", async () => {
		const cases: [Json, number, number][] = [
			[
				{
					prompt_tokens: 100,
					completion_tokens: 10,
					prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 5 },
				},
				55,
				40,
			],
			[{ prompt_tokens: 100, completion_tokens: 10, prompt_cache_hit_tokens: 30 }, 70, 30],
			[{ prompt_tokens: 100, completion_tokens: 10, cached_tokens: 20 }, 80, 20],
		];
		for (const [usage, input, cacheRead] of cases) {
			const { message } = await streamRaw(chatSse([choice({ content: "x" }, "stop"), { choices: [], usage }]));
			expect(message.usage.input).toBe(input);
			expect(message.usage.cacheRead).toBe(cacheRead);
			expect(message.usage.output).toBe(10);
		}
		const billed = await streamRaw(
			chatSse([
				choice({ content: "x" }, "stop"),
				{
					choices: [],
					usage: {
						prompt_tokens: 10,
						completion_tokens: 2,
						cost: 0.5,
						completion_tokens_details: { reasoning_tokens: 1 },
					},
				},
			]),
		);
		expect(billed.message.usage.cost).toMatchObject({ total: 0.5, totalFromProvider: true });
		expect(billed.message.usage.reasoning).toBe(1);
	});

	it.each([
		["stop", "stop"],
		["end", "stop"],
		["length", "length"],
		["tool_calls", "toolUse"],
		["function_call", "toolUse"],
	])("finish_reason %s maps to %s", async (raw, expected) => {
		const { message } = await streamRaw(chatSse([choice({ content: "x" }, raw)]));
		expect(message.stopReason).toBe(expected);
		expect(message.rawStopReason).toBe(raw);
	});

	it("content_filter and unknown finish reasons are errors", async () => {
		const filtered = await streamRaw(chatSse([choice({ content: "x" }, "content_filter")]));
		expect(filtered.message.errorMessage).toBe("Provider finish_reason: content_filter");
		const odd = await streamRaw(chatSse([choice({ content: "x" }, "weird")]));
		expect(odd.message.errorMessage).toBe("Provider finish_reason: weird");
	});

	it("a missing finish reason is an error unless the host never sends one", async () => {
		const missing = await streamRaw(chatSse([choice({ content: "x" })]));
		expect(missing.message.errorMessage).toBe("Stream ended without finish_reason");
		const inferred = await streamRaw(chatSse([choice({ content: "x" })]), {
			compat: { supportsFinishReason: false },
		});
		expect(inferred.message.stopReason).toBe("stop");
		const tools = await streamRaw(
			chatSse([choice({ tool_calls: [{ index: 0, id: "c", function: { name: "ls", arguments: "{}" } }] })]),
			{ compat: { supportsFinishReason: false } },
		);
		expect(tools.message.stopReason).toBe("toolUse");
	});

	it("reasoning_details accumulate into the thinking signature without deltas", async () => {
		const { events, message } = await streamRaw(
			chatSse([
				choice({ reasoning: "Think", reasoning_details: [{ type: "reasoning.text", text: "Thi", index: 0 }] }),
				choice({
					reasoning_details: [
						{ type: "reasoning.text", text: "nk", index: 0 },
						{ type: "reasoning.encrypted", data: "E", index: 1 },
					],
				}),
				choice({ content: "A" }, "stop"),
			]),
		);
		const thinking = message.content[0];
		expect(thinking?.type === "thinking" && JSON.parse(thinking.thinkingSignature ?? "")).toEqual([
			{ type: "reasoning.text", text: "Think", index: 0 },
			{ type: "reasoning.encrypted", data: "E", index: 1 },
		]);
		expect(events.filter((e) => e.type === "thinking_delta")).toHaveLength(1);
		expect(texts(message)).toBe("A");
	});

	it("an in-stream error chunk keeps OpenRouter's raw upstream text", async () => {
		const { message } = await streamRaw(
			chatSse([
				choice({ content: "par" }),
				{ error: { message: "Upstream failed", code: 502, metadata: { raw: "upstream said no" } } },
			]),
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("Upstream failed");
		expect(message.errorMessage).toContain("\nupstream said no");
		expect(texts(message)).toBe("par");
	});

	it("interleaved text and tool-call deltas are routed by contentIndex", async () => {
		const { events, message } = await streamRaw(
			chatSse([
				choice({ content: "a", tool_calls: [{ index: 0, id: "c1", function: { name: "ls", arguments: "{" } }] }),
				choice({ content: "b", tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
				choice({}, "tool_calls"),
			]),
		);
		expect(message.content.map((b) => b.type)).toEqual(["text", "toolCall"]);
		const textDeltas = events.filter((e) => e.type === "text_delta");
		expect(textDeltas.every((e) => "contentIndex" in e && e.contentIndex === 0)).toBe(true);
		expect((message.content[1] as ToolCall).arguments).toEqual({});
	});
});
