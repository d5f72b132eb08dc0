import type {
	Api,
	AssistantMessage,
	Message,
	Model,
	OpenAIResponsesCompat,
	OpenAIResponsesOptions,
	Tool,
	ToolCall,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import * as responses from "../../src/api/openai-responses/index.js";
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

const api = "openai-responses";
type Json = Record<string, unknown>;

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantMessage(api, content, extra);
}

async function sent(
	overrides: Partial<Model<Api>> & { compat?: OpenAIResponsesCompat } = {},
	options: OpenAIResponsesOptions = {},
	messages?: Message[],
	tools?: Tool[],
) {
	const server = await mockServer();
	server.enqueue({ text: "ok" });
	const model = wireModel(api, server, overrides);
	const context = transcript({
		systemPrompt: "Be brief.",
		...(tools ? { tools } : {}),
		...(messages ? { messages } : {}),
	});
	const { message } = await collect(wireApi(api).stream(model, context, { apiKey: API_KEY, ...options }));
	expect(message.errorMessage).toBeUndefined();
	return { request: body(server.requests[0]), headers: server.requests[0]?.headers ?? {} };
}

describe("openai-responses payload", () => {
	it("builds input items for every role", async () => {
		const messages: Message[] = [
			{
				role: "user",
				content: [
					{ type: "text", text: "Look" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
				],
				timestamp: 1,
			},
			assistant(
				[
					{
						type: "text",
						text: "Reading.",
						textSignature: JSON.stringify({ v: 1, id: "msg_1", phase: "commentary" }),
					},
					{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } },
				],
				{ stopReason: "toolUse" },
			),
			{
				role: "toolResult",
				toolCallId: "call_1|fc_1",
				toolName: "read",
				content: [
					{ type: "text", text: "pixels:" },
					{ type: "image", data: "BBBB", mimeType: "image/png" },
				],
				isError: false,
				timestamp: 3,
			},
		];
		const { request } = await sent({ reasoning: true }, {}, messages);
		expect(request.store).toBe(false);
		expect(request.input).toEqual([
			{ role: "developer", content: "Be brief." },
			{
				role: "user",
				content: [
					{ type: "input_text", text: "Look" },
					{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" },
				],
			},
			{
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: "Reading.", annotations: [] }],
				status: "completed",
				id: "msg_1",
				phase: "commentary",
			},
			{ type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a"}' },
			{
				type: "function_call_output",
				call_id: "call_1",
				output: [
					{ type: "input_text", text: "pixels:" },
					{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,BBBB" },
				],
			},
		]);
		const plain = await sent({}, {}, [{ role: "user", content: "hi", timestamp: 1 }]);
		expect((plain.request.input as Json[])[0]).toEqual({ role: "system", content: "Be brief." });
	});

	it("replays the reasoning item from the thinking signature and reads legacy text signatures", async () => {
		const reasoning = {
			type: "reasoning",
			id: "rs_1",
			summary: [{ type: "summary_text", text: "t" }],
			encrypted_content: "E",
		};
		const { request } = await sent({ reasoning: true }, {}, [
			{ role: "user", content: "Q", timestamp: 1 },
			assistant([
				{ type: "thinking", thinking: "t", thinkingSignature: JSON.stringify(reasoning) },
				{ type: "text", text: "A", textSignature: "msg_legacy" },
			]),
			{ role: "user", content: "Q2", timestamp: 3 },
		]);
		const input = request.input as Json[];
		expect(input[2]).toEqual(reasoning);
		expect(input[3]).toMatchObject({ type: "message", id: "msg_legacy" });
		expect(input[3]?.phase).toBeUndefined();
	});

	it("drops item ids of another model of the same provider and renames foreign ones for OpenAI", async () => {
		const call = { type: "toolCall" as const, id: "call_9|fc_9", name: "read", arguments: {} };
		const result: Message = {
			role: "toolResult",
			toolCallId: "call_9|fc_9",
			toolName: "read",
			content: [],
			isError: false,
			timestamp: 3,
		};
		const otherModel = await sent({}, {}, [
			{ role: "user", content: "Q", timestamp: 1 },
			assistant([call], { model: "older-model", stopReason: "toolUse" }),
			result,
		]);
		const fn = (otherModel.request.input as Json[]).find((item) => item.type === "function_call");
		expect(fn).toEqual({ type: "function_call", call_id: "call_9", name: "read", arguments: "{}" });

		const foreign = await sent({ provider: "openai" }, {}, [
			{ role: "user", content: "Q", timestamp: 1 },
			assistant([{ ...call, id: "call_9|item-from-elsewhere" }], {
				provider: "other",
				api: "openai-completions",
				stopReason: "toolUse",
			}),
			{ ...result, toolCallId: "call_9|item-from-elsewhere" } as Message,
		]);
		const input = foreign.request.input as Json[];
		const foreignCall = input.find((item) => item.type === "function_call");
		expect(foreignCall?.id).toMatch(/^fc_[0-9a-f]+$/);
		expect(foreignCall?.call_id).toBe("call_9");
		expect(input.find((item) => item.type === "function_call_output")?.call_id).toBe("call_9");
	});

	it("max_output_tokens is at least 16; prompt_cache_key is clamped to 64 characters; 24h retention when long", async () => {
		const longId = "s".repeat(70);
		const { request, headers } = await sent(
			{},
			{ maxTokens: 5, sessionId: longId, cacheRetention: "long", serviceTier: "flex" },
		);
		expect(request.max_output_tokens).toBe(16);
		expect(request.prompt_cache_key).toBe("s".repeat(64));
		expect(request.prompt_cache_retention).toBe("24h");
		expect(request.service_tier).toBe("flex");
		expect(headers["x-client-request-id"]).toBe(longId);
		expect(headers["session-id"]).toBe(longId);
		const noMax = await sent(
			{ compat: { supportsMaxOutputTokens: false, promptCacheKeyMode: "disabled" } },
			{ maxTokens: 500, sessionId: "s" },
		);
		expect(noMax.request.max_output_tokens).toBeUndefined();
		expect(noMax.request.prompt_cache_key).toBeUndefined();
		const none = await sent({}, { sessionId: "s", cacheRetention: "none" });
		expect(none.request.prompt_cache_key).toBeUndefined();
		expect(none.headers["session-id"]).toBeUndefined();
	});

	it("reasoning: effort and summary with encrypted content, the off value, and xai's include", async () => {
		const on = await sent({ reasoning: true, thinkingLevelMap: { high: "max" } }, { reasoningEffort: "high" });
		expect(on.request.reasoning).toEqual({ effort: "max", summary: "auto" });
		expect(on.request.include).toEqual(["reasoning.encrypted_content"]);
		const summary = await sent({ reasoning: true }, { reasoningSummary: "detailed" });
		expect(summary.request.reasoning).toEqual({ effort: "medium", summary: "detailed" });
		const off = await sent({ reasoning: true });
		expect(off.request.reasoning).toEqual({ effort: "none" });
		expect(off.request.include).toBeUndefined();
		const noOff = await sent({ reasoning: true, thinkingLevelMap: { off: null } });
		expect(noOff.request.reasoning).toBeUndefined();
		const xai = await sent({ provider: "xai" });
		expect(xai.request.include).toEqual(["reasoning.encrypted_content"]);
	});

	it("declares current tools with strict only when supported", async () => {
		const plain = await sent({}, { toolChoice: "auto" }, undefined, [readTool]);
		expect(plain.request.tools).toEqual([
			{ type: "function", name: "read", description: "Read a file", parameters: readTool.parameters },
		]);
		expect(plain.request.tool_choice).toBe("auto");
		const strict = await sent({ compat: { supportsStrictMode: true } }, {}, undefined, [
			{ ...readTool, constrainedSampling: { type: "json_schema", strict: "prefer" } },
		]);
		expect((strict.request.tools as Json[])[0]).toMatchObject({
			strict: true,
			parameters: { additionalProperties: false },
		});
	});

	it("streamSimple maps the clamped level to reasoningEffort", async () => {
		const server = await mockServer();
		server.enqueue({ text: "ok" });
		const model = wireModel(api, server, { reasoning: true });
		await collect(responses.streamSimple(model, transcript(), { apiKey: API_KEY, reasoning: "low" }));
		expect(body(server.requests[0]).reasoning).toEqual({ effort: "low", summary: "auto" });
	});
});

describe("openai-responses stream mapping", () => {
	async function run(
		turn: Parameters<Awaited<ReturnType<typeof mockServer>>["enqueue"]>[0],
		overrides: Partial<Model<Api>> = {},
		options: OpenAIResponsesOptions = {},
	) {
		const server = await mockServer();
		server.enqueue(turn);
		return collect(
			wireApi(api).stream(wireModel(api, server, overrides), transcript(), { apiKey: API_KEY, ...options }),
		);
	}

	it("streams reasoning summaries as thinking and stores the reasoning item as the signature", async () => {
		const { message } = await run(
			{ thinking: { text: "deep thought", signature: "ENC" }, text: "answer" },
			{ reasoning: true },
			{ reasoningEffort: "medium" },
		);
		const thinking = message.content[0];
		expect(thinking?.type).toBe("thinking");
		if (thinking?.type !== "thinking") return;
		expect(thinking.thinking).toBe("deep thought");
		expect(JSON.parse(thinking.thinkingSignature ?? "")).toMatchObject({
			type: "reasoning",
			encrypted_content: "ENC",
		});
		const text = message.content[1];
		expect(text?.type === "text" && JSON.parse(text.textSignature ?? "")).toEqual({
			v: 1,
			id: expect.stringMatching(/^msg_/),
		});
	});

	it("tool calls get call|item ids and a stop with tool calls becomes toolUse", async () => {
		const { message } = await run({
			toolCalls: [{ id: "call_7", itemId: "fc_7", name: "read", arguments: { path: "p" } }],
		});
		expect(message.stopReason).toBe("toolUse");
		expect(message.rawStopReason).toBe("completed");
		expect(message.content[0]).toEqual({
			type: "toolCall",
			id: "call_7|fc_7",
			name: "read",
			arguments: { path: "p" },
		});
	});

	it("maps incomplete/max_output_tokens to length and other incomplete reasons to errors", async () => {
		const length = await run({ text: "cut", stopReason: "length" });
		expect(length.message.stopReason).toBe("length");
		expect(length.message.rawStopReason).toBe("incomplete.max_output_tokens");
		const filtered = await run({ text: "no", stopReason: "contentFilter" });
		expect(filtered.message.errorMessage).toBe("Response incomplete: content_filter");
		const bare = await run({ text: "no", rawStopReason: "incomplete" });
		expect(bare.message.errorMessage).toBe("Response incomplete without a provider reason");
	});

	it.each([
		["cancelled", "error"],
		["failed", "error"],
		["queued", "stop"],
		["in_progress", "stop"],
	] as const)("a terminal response with status %s ends as %s", async (status, expected) => {
		const server = await mockServer();
		const frame = (data: Json) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
		server.enqueue({
			raw: [
				frame({ type: "response.created", response: { id: "resp_s", status: "in_progress", output: [] } }),
				frame({ type: "response.completed", response: { id: "resp_s", status, output: [] } }),
			],
		});
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.stopReason).toBe(expected);
		expect(message.rawStopReason).toBe(status);
		if (expected === "error") expect(message.errorMessage).toBe("Unknown error (no error details in response)");
	});

	it("response.failed and error events become error texts", async () => {
		const failed = await run({
			text: "x",
			stopReason: "error",
			error: { code: "server_error", message: "The server had an error" },
		});
		expect(failed.message.errorMessage).toBe("server_error: The server had an error");
		expect(texts(failed.message)).toBe("x");
		const event = await run({
			text: "x",
			stopReason: "error",
			error: { code: "rate_limit", message: "Slow down", asErrorEvent: true },
		});
		expect(event.message.errorMessage).toBe("Error Code rate_limit: Slow down");
	});

	it("a toolUse response whose tool call never finished is an error", async () => {
		const server = await mockServer();
		const frame = (data: Json) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
		const response = { id: "resp_1", status: "completed", output: [], usage: null };
		server.enqueue({
			raw: [
				frame({ type: "response.created", response: { ...response, status: "in_progress" } }),
				frame({
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: "" },
				}),
				frame({ type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: '{"pa' }),
				frame({ type: "response.completed", response }),
			],
		});
		const { message } = await collect(wireApi(api).stream(wireModel(api, server), transcript(), { apiKey: API_KEY }));
		expect(message.errorMessage).toBe(
			"OpenAI Responses stream completed with an unfinished tool call: read (call_1|fc_1)",
		);
	});

	it("usage from the terminal response, with cache reads and writes and the flex tier discount", async () => {
		const { message } = await run(
			{ text: "ok", usage: { input: 1000, output: 100, cacheRead: 200, cacheWrite: 50, reasoning: 30 } },
			{},
			{ serviceTier: "flex" },
		);
		expect(message.usage).toMatchObject({
			input: 1000,
			output: 100,
			cacheRead: 200,
			cacheWrite: 50,
			reasoning: 30,
			totalTokens: 1350,
		});
		expect(message.usage.cost.input).toBeCloseTo((3 * 1000 * 0.5) / 1e6);
	});

	it("prefixes HTTP errors with the provider's API name", async () => {
		const openai = await run(
			{ fault: { kind: "http", status: 401, message: "Incorrect API key provided" } },
			{ provider: "openai" },
		);
		expect(openai.message.errorMessage).toMatch(/^OpenAI API error \(401\): .*Incorrect API key provided/);
		const other = await run({ fault: { kind: "http", status: 500, message: "boom" } });
		expect(other.message.errorMessage).toMatch(/^mock API error \(500\): .*boom/);
	});

	it("backfills encrypted reasoning that only the terminal response carries", async () => {
		const server = await mockServer();
		const frame = (data: Json) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
		const item = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "why" }] };
		server.enqueue({
			raw: [
				frame({ type: "response.created", response: { id: "resp_2", status: "in_progress", output: [] } }),
				frame({ type: "response.output_item.added", output_index: 0, item: { ...item, summary: [] } }),
				frame({
					type: "response.reasoning_summary_text.delta",
					output_index: 0,
					item_id: "rs_1",
					summary_index: 0,
					delta: "why",
				}),
				frame({ type: "response.output_item.done", output_index: 0, item }),
				frame({
					type: "response.completed",
					response: { id: "resp_2", status: "completed", output: [{ ...item, encrypted_content: "LATE" }] },
				}),
			],
		});
		const { message } = await collect(
			wireApi(api).stream(wireModel(api, server, { reasoning: true }), transcript(), { apiKey: API_KEY }),
		);
		const thinking = message.content[0];
		expect(thinking?.type === "thinking" && JSON.parse(thinking.thinkingSignature ?? "")).toEqual({
			...item,
			encrypted_content: "LATE",
		});
		expect(message.responseId).toBe("resp_2");
		expect((message.content as ToolCall[]).length).toBe(1);
	});
});
