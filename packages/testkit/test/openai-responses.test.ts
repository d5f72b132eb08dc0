import { generateWords, type MockLlmServer, type MockStopReason, startMockLlmServer } from "@tau/testkit";
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it } from "vitest";

let server: MockLlmServer;

async function start(): Promise<OpenAI> {
	server = await startMockLlmServer({ apiKey: "sk-test" });
	return new OpenAI({ apiKey: "sk-test", baseURL: server.url("/v1"), maxRetries: 0 });
}

afterEach(() => server?.close());

const request = { model: "gpt-test", input: "hi" };

async function events(client: OpenAI, extra: Record<string, unknown> = {}): Promise<ResponseStreamEvent[]> {
	const stream = await client.responses.create({ ...request, ...extra, stream: true });
	const all: ResponseStreamEvent[] = [];
	for await (const event of stream) all.push(event);
	return all;
}

describe("openai responses stream", () => {
	it("streams a message item whose output_text deltas carry N tokens in chunks of K", async () => {
		const client = await start();
		server.enqueue({ text: { tokens: 9 }, chunkSize: 3 });
		const all = await events(client);
		expect(all.map((event) => event.type)).toEqual([
			"response.created",
			"response.in_progress",
			"response.output_item.added",
			"response.content_part.added",
			"response.output_text.delta",
			"response.output_text.delta",
			"response.output_text.delta",
			"response.output_text.done",
			"response.content_part.done",
			"response.output_item.done",
			"response.completed",
		]);
		expect(all.map((event) => event.sequence_number)).toEqual(all.map((_, index) => index));
		const text = all.flatMap((event) => (event.type === "response.output_text.delta" ? [event.delta] : []));
		expect(text.join("")).toBe(generateWords(9));
	});

	it("builds the final response in the SDK's stream helper, with usage", async () => {
		const client = await start();
		server.enqueue({
			text: "Hello world",
			usage: { input: 10, output: 4, cacheRead: 90, cacheWrite: 5, reasoning: 2 },
		});
		const response = await client.responses.stream(request).finalResponse();
		expect(response.status).toBe("completed");
		expect(response.output).toMatchObject([
			{
				type: "message",
				role: "assistant",
				status: "completed",
				content: [{ type: "output_text", text: "Hello world" }],
			},
		]);
		expect(response.usage).toMatchObject({
			input_tokens: 105,
			input_tokens_details: { cached_tokens: 90, cache_write_tokens: 5 },
			output_tokens: 4,
			output_tokens_details: { reasoning_tokens: 2 },
			total_tokens: 109,
		});
	});

	it("streams a reasoning item as summary deltas, with encrypted content when the request includes it", async () => {
		const client = await start();
		server.enqueue(
			{ thinking: { text: "first I look", signature: "enc-1" }, text: "done" },
			{ thinking: "plain", text: "done" },
		);
		const withEncrypted = await events(client, { include: ["reasoning.encrypted_content"] });
		const summary = withEncrypted.flatMap((event) =>
			event.type === "response.reasoning_summary_text.delta" ? [event.delta] : [],
		);
		expect(summary.join("")).toBe("first I look");
		const reasoningDone = withEncrypted.find(
			(event) => event.type === "response.output_item.done" && event.item.type === "reasoning",
		);
		expect(reasoningDone?.type === "response.output_item.done" && reasoningDone.item).toMatchObject({
			type: "reasoning",
			summary: [{ type: "summary_text", text: "first I look" }],
			encrypted_content: "enc-1",
		});
		const without = await client.responses.stream(request).finalResponse();
		const reasoning = without.output.find((item) => item.type === "reasoning");
		expect(reasoning).toMatchObject({ summary: [{ type: "summary_text", text: "plain" }] });
		expect(reasoning && "encrypted_content" in reasoning).toBe(false);
	});

	it("streams parallel function calls with argument deltas and done events", async () => {
		const client = await start();
		const a = { path: "a" };
		const b = { path: "b", deep: { x: [true, null] } };
		server.enqueue({
			toolCalls: [
				{ id: "call_a", itemId: "fc_a", name: "read", arguments: a, chunkSize: 3 },
				{ id: "call_b", name: "read", arguments: b, chunkSize: 3 },
			],
		});
		const all = await events(client);
		const done = all.flatMap((event) => (event.type === "response.function_call_arguments.done" ? [event] : []));
		expect(done.map((event) => [event.output_index, JSON.parse(event.arguments)])).toEqual([
			[0, a],
			[1, b],
		]);
		const deltas = all.flatMap((event) =>
			event.type === "response.function_call_arguments.delta" && event.output_index === 1 ? [event.delta] : [],
		);
		expect(deltas.join("")).toBe(JSON.stringify(b));
		const completed = all.at(-1);
		expect(completed?.type).toBe("response.completed");
		const output = completed?.type === "response.completed" ? completed.response.output : [];
		expect(output.map((item) => (item.type === "function_call" ? [item.id, item.call_id, item.status] : []))).toEqual(
			[
				["fc_a", "call_a", "completed"],
				[expect.stringMatching(/^fc_/), "call_b", "completed"],
			],
		);
	});

	it("lets the SDK stream helper accumulate function call arguments", async () => {
		const client = await start();
		server.enqueue({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo hi" } }] });
		const response = await client.responses.stream(request).finalResponse();
		const call = response.output[0];
		expect(call?.type === "function_call" && JSON.parse(call.arguments)).toEqual({ command: "echo hi" });
	});

	const statuses: Array<[MockStopReason, string, unknown]> = [
		["stop", "completed", null],
		["toolUse", "completed", null],
		["length", "incomplete", { reason: "max_output_tokens" }],
		["contentFilter", "incomplete", { reason: "content_filter" }],
	];
	it.each(statuses)("maps stop reason %s to status %s", async (neutral, status, details) => {
		const client = await start();
		server.enqueue({ text: "x", stopReason: neutral });
		const all = await events(client);
		const last = all.at(-1);
		expect(last?.type).toBe(`response.${status}`);
		const response = last && "response" in last ? last.response : undefined;
		expect(response?.status).toBe(status);
		expect(response?.incomplete_details).toEqual(details);
	});

	it("streams refusal text as a refusal content part", async () => {
		const client = await start();
		server.enqueue({ refusal: "No.", stopReason: "refusal" });
		const all = await events(client);
		expect(
			all.filter((event) => event.type === "response.refusal.delta").map((event) => "delta" in event && event.delta),
		).toEqual(["No."]);
	});

	it("ends with response.failed for an error stop, or a bare error event when asked", async () => {
		const client = await start();
		server.enqueue(
			{ text: "partial", stopReason: "error", error: { code: "server_error", message: "boom" } },
			{ stopReason: "error", error: { code: "rate_limit_exceeded", message: "slow down", asErrorEvent: true } },
		);
		const failed = (await events(client)).at(-1);
		expect(failed?.type).toBe("response.failed");
		expect(failed?.type === "response.failed" && failed.response.error).toEqual({
			code: "server_error",
			message: "boom",
		});
		const errored = (await events(client)).at(-1);
		expect(errored).toMatchObject({ type: "error", code: "rate_limit_exceeded", message: "slow down" });
	});
});

describe("openai responses JSON and auth", () => {
	it("answers a non-streaming request with the finished response", async () => {
		const client = await start();
		server.enqueue({
			text: "Hi",
			toolCalls: [{ id: "call_2", name: "ls", arguments: {} }],
			usage: { input: 3, output: 1 },
		});
		const response = await client.responses.create(request);
		expect(response.status).toBe("completed");
		expect(response.output_text).toBe("Hi");
		expect(response.output.map((item) => item.type)).toEqual(["message", "function_call"]);
		expect(response.usage?.total_tokens).toBe(4);
	});

	it("rejects a wrong key with 401 and logs the request", async () => {
		const client = await start();
		const wrong = new OpenAI({ apiKey: "sk-wrong", baseURL: server.url("/v1"), maxRetries: 0 });
		const error = await wrong.responses.create(request).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
		expect(server.requests[0]).toMatchObject({ path: "/v1/responses", protocol: "openai-responses", status: 401 });
		server.enqueue({ text: "fine" });
		expect((await client.responses.create(request)).output_text).toBe("fine");
	});
});
