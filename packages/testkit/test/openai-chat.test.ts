import { generateWords, type MockLlmServer, type MockStopReason, startMockLlmServer } from "@tau/testkit";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, describe, expect, it } from "vitest";

let server: MockLlmServer;

async function start(): Promise<OpenAI> {
	server = await startMockLlmServer({ apiKey: "sk-test" });
	return new OpenAI({ apiKey: "sk-test", baseURL: server.url("/v1"), maxRetries: 0 });
}

afterEach(() => server?.close());

const request = { model: "gpt-test", messages: [{ role: "user" as const, content: "hi" }] };

async function chunks(client: OpenAI, includeUsage = true): Promise<ChatCompletionChunk[]> {
	const stream = await client.chat.completions.create({
		...request,
		stream: true,
		...(includeUsage ? { stream_options: { include_usage: true } } : {}),
	});
	const all: ChatCompletionChunk[] = [];
	for await (const chunk of stream) all.push(chunk);
	return all;
}

/** Delta fields the SDK types do not declare (provider reasoning fields). */
type LooseDelta = Record<string, unknown>;

describe("openai chat completions stream", () => {
	it("streams text of N tokens in chunks of K tokens and ends with finish_reason and [DONE]", async () => {
		const client = await start();
		server.enqueue({ text: { tokens: 10 }, chunkSize: 3 });
		const all = await chunks(client, false);
		const content = all.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""));
		expect(content.filter((piece) => piece !== "")).toHaveLength(4);
		expect(content.join("")).toBe(generateWords(10));
		expect(all[0]?.choices[0]?.delta.role).toBe("assistant");
		expect(all.at(-1)?.choices[0]?.finish_reason).toBe("stop");
		expect(all.every((chunk) => chunk.model === "gpt-test" && chunk.object === "chat.completion.chunk")).toBe(true);
		expect(all.some((chunk) => chunk.usage)).toBe(false);
	});

	it("sends thinking as reasoning_content by default and as reasoning when asked", async () => {
		const client = await start();
		server.enqueue(
			{ thinking: "step one", text: "done" },
			{ thinking: "step two", text: "done", reasoningField: "reasoning" },
		);
		const first = await chunks(client);
		const second = await chunks(client);
		const field = (all: ChatCompletionChunk[], name: string) =>
			all.flatMap((chunk) => chunk.choices.map((choice) => (choice.delta as LooseDelta)[name] ?? "")).join("");
		expect(field(first, "reasoning_content")).toBe("step one");
		expect(field(first, "reasoning")).toBe("");
		expect(field(second, "reasoning")).toBe("step two");
		expect(field(second, "reasoning_content")).toBe("");
	});

	it("streams parallel tool calls as deltas keyed by index that the SDK accumulates", async () => {
		const client = await start();
		const a = { path: "a.txt", lines: [1, 2] };
		const b = { command: "ls -la" };
		server.enqueue({
			toolCalls: [
				{ id: "call_a", name: "read", arguments: a, chunkSize: 4 },
				{ id: "call_b", name: "bash", arguments: b, chunkSize: 4 },
			],
		});
		const stream = client.chat.completions.stream({ ...request, stream_options: { include_usage: true } });
		const completion = await stream.finalChatCompletion();
		const choice = completion.choices[0];
		expect(choice?.finish_reason).toBe("tool_calls");
		expect(
			choice?.message.tool_calls?.map((call) =>
				call.type === "function" ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [],
			),
		).toEqual([
			["call_a", "read", a],
			["call_b", "bash", b],
		]);
	});

	it("sends the id and name only in the first delta of each tool call", async () => {
		const client = await start();
		server.enqueue({ toolCalls: [{ id: "call_x", name: "read", arguments: { p: 1 }, chunkSize: 2 }] });
		const deltas = (await chunks(client)).flatMap((chunk) =>
			chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []),
		);
		expect(deltas[0]).toEqual({
			index: 0,
			id: "call_x",
			type: "function",
			function: { name: "read", arguments: "" },
		});
		expect(deltas.slice(1).every((delta) => delta.id === undefined && delta.function?.name === undefined)).toBe(true);
		expect(deltas.map((delta) => delta.function?.arguments ?? "").join("")).toBe('{"p":1}');
	});

	it("sends usage, with cached and reasoning tokens, in a final choice-less chunk when include_usage is set", async () => {
		const client = await start();
		server.enqueue({ text: "ok", usage: { input: 100, output: 30, cacheRead: 400, cacheWrite: 20, reasoning: 12 } });
		const all = await chunks(client);
		const last = all.at(-1);
		expect(last?.choices).toEqual([]);
		expect(last?.usage).toMatchObject({
			prompt_tokens: 520,
			completion_tokens: 30,
			total_tokens: 550,
			prompt_tokens_details: { cached_tokens: 400, cache_write_tokens: 20 },
			completion_tokens_details: { reasoning_tokens: 12 },
		});
		expect(all.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
	});

	const finishReasons: Array<[MockStopReason, string]> = [
		["stop", "stop"],
		["length", "length"],
		["toolUse", "tool_calls"],
		["contentFilter", "content_filter"],
	];
	it.each(finishReasons)("maps stop reason %s to finish_reason %s", async (neutral, wire) => {
		const client = await start();
		server.enqueue({ text: "x", stopReason: neutral });
		const completion = await client.chat.completions.stream(request).finalChatCompletion();
		expect(completion.choices[0]?.finish_reason).toBe(wire);
	});

	it("streams refusal text in delta.refusal", async () => {
		const client = await start();
		server.enqueue({ refusal: "I can't help with that.", stopReason: "refusal" });
		const completion = await client.chat.completions.stream(request).finalChatCompletion();
		expect(completion.choices[0]?.message.refusal).toBe("I can't help with that.");
		expect(completion.choices[0]?.finish_reason).toBe("content_filter");
	});

	it("sends an in-stream error object that the SDK raises as an API error", async () => {
		const client = await start();
		server.enqueue({ text: "partial", stopReason: "error", error: { message: "upstream blew up" } });
		const error = await chunks(client).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OpenAI.APIError);
		expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain("upstream blew up");
	});
});

describe("openai chat completions JSON", () => {
	it("answers a non-streaming request with content, reasoning, tool calls and usage", async () => {
		const client = await start();
		server.enqueue({
			thinking: "why",
			text: "Hello",
			toolCalls: [{ id: "call_1", name: "ls", arguments: { dir: "." } }],
			usage: { input: 5, output: 2, cacheRead: 1 },
		});
		const completion = await client.chat.completions.create(request);
		const choice = completion.choices[0];
		expect(choice?.message.content).toBe("Hello");
		expect((choice?.message as unknown as LooseDelta | undefined)?.reasoning_content).toBe("why");
		expect(choice?.message.tool_calls).toEqual([
			{ id: "call_1", type: "function", function: { name: "ls", arguments: '{"dir":"."}' } },
		]);
		expect(choice?.finish_reason).toBe("tool_calls");
		expect(completion.usage).toMatchObject({
			prompt_tokens: 6,
			completion_tokens: 2,
			prompt_tokens_details: { cached_tokens: 1 },
		});
	});
});

describe("openai chat auth and request log", () => {
	it("records the request and rejects a wrong key with 401 invalid_api_key", async () => {
		const client = await start();
		server.enqueue({ text: "ok" });
		await chunks(client);
		const wrong = new OpenAI({ apiKey: "sk-wrong", baseURL: server.url("/v1"), maxRetries: 0 });
		const error = await wrong.chat.completions.create(request).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
		expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("invalid_api_key");
		const first = await server.waitForSettled(0);
		const second = server.requests[1];
		expect(first).toMatchObject({
			path: "/v1/chat/completions",
			protocol: "openai-chat",
			stream: true,
			status: 200,
			outcome: "completed",
			body: { model: "gpt-test", stream_options: { include_usage: true } },
		});
		expect(first?.headers.authorization).toBe("Bearer sk-test");
		expect(second?.status).toBe(401);
	});
});
