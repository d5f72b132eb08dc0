import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { generateWords, type MockLlmServer, splitIntoPieces, startMockLlmServer } from "@tau/testkit";
import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";

let server: MockLlmServer;
afterEach(() => server?.close());

const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
	return fetch(server.url(path), {
		method: "POST",
		body,
		headers: { "content-type": "application/json", ...headers },
	});
}

function chatClient(): OpenAI {
	return new OpenAI({ apiKey: "k", baseURL: server.url("/v1"), maxRetries: 0 });
}

const chatRequest = { model: "gpt-test", messages: [{ role: "user" as const, content: "hi" }] };

describe("paced streams", () => {
	it("framesPerSecond holds each frame back until its time has come", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
		try {
			server = await startMockLlmServer({ apiKey: "k" });
			server.enqueue({ text: ["one ", "two"], framesPerSecond: 10 });
			const stream = await chatClient().chat.completions.create({ ...chatRequest, stream: true });
			const chunks = stream[Symbol.asyncIterator]();
			expect((await chunks.next()).value?.choices[0]?.delta.role).toBe("assistant");
			let arrived = false;
			const second = chunks.next().then((chunk) => {
				arrived = true;
				return chunk;
			});
			for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
			// The clock has not moved: the next frame is not due yet.
			expect(arrived).toBe(false);
			await vi.advanceTimersByTimeAsync(100);
			expect((await second).value?.choices[0]?.delta.content).toBe("one ");
			await vi.advanceTimersByTimeAsync(1000);
			let text = "one ";
			for await (const chunk of { [Symbol.asyncIterator]: () => chunks })
				text += chunk.choices[0]?.delta.content ?? "";
			expect(text).toBe("one two");
		} finally {
			vi.useRealTimers();
		}
	});
});

describe("scenario queue and factories", () => {
	it("consumes queued replies in request order, across protocols", async () => {
		server = await startMockLlmServer({ replies: [{ text: "one" }] });
		server.enqueue({ text: "two" });
		const chat = chatClient();
		const anthropic = new Anthropic({ apiKey: "k", baseURL: server.baseUrl, maxRetries: 0 });
		expect(server.pending).toBe(2);
		const first = await chat.chat.completions.create(chatRequest);
		const second = await anthropic.messages.create({ ...chatRequest, max_tokens: 10 });
		expect(first.choices[0]?.message.content).toBe("one");
		expect(second.content).toEqual([{ type: "text", text: "two" }]);
		expect(server.requests.map((entry) => entry.protocol)).toEqual(["openai-chat", "anthropic-messages"]);
	});

	it("passes the recorded request (parsed body, headers) to queued factories and to the fallback factory", async () => {
		server = await startMockLlmServer();
		server.enqueue((request) => ({ text: `queued saw ${(request.body as { model: string }).model}` }));
		server.setFactory((request) => ({ text: `fallback #${request.index} ${request.headers["x-trace"]}` }));
		const chat = chatClient();
		const first = await chat.chat.completions.create(chatRequest);
		const second = await chat.chat.completions.create(chatRequest, { headers: { "x-trace": "t-1" } });
		expect(first.choices[0]?.message.content).toBe("queued saw gpt-test");
		expect(second.choices[0]?.message.content).toBe("fallback #1 t-1");
	});

	it("answers with a provider-format 500 naming the problem when the queue is empty or a factory throws", async () => {
		server = await startMockLlmServer();
		const chat = chatClient();
		const empty = await chat.chat.completions.create(chatRequest).catch((e: unknown) => e);
		expect(empty).toBeInstanceOf(OpenAI.InternalServerError);
		expect((empty as Error).message).toContain("no scripted reply queued for request #0");
		server.enqueue(() => {
			throw new Error("bad script");
		});
		const thrown = await chat.chat.completions.create(chatRequest).catch((e: unknown) => e);
		expect((thrown as Error).message).toContain("reply factory failed: bad script");
	});

	it("answers with a 500 naming the problem when a scripted reply cannot be rendered", async () => {
		server = await startMockLlmServer({ replies: [{ text: 42 as unknown as string }] });
		const error = await chatClient()
			.chat.completions.create(chatRequest)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OpenAI.InternalServerError);
		expect((error as Error).message).toContain("mock-llm: cannot serve the scripted reply");
	});

	it("uses the request's model name unless the turn overrides it", async () => {
		server = await startMockLlmServer({ replies: [{ text: "a" }, { text: "b", model: "served-model" }] });
		const chat = chatClient();
		expect((await chat.chat.completions.create(chatRequest)).model).toBe("gpt-test");
		expect((await chat.chat.completions.create(chatRequest)).model).toBe("served-model");
	});

	it("generates N words and splits them into pieces of K words", () => {
		const text = generateWords(5);
		expect(text.split(" ")).toHaveLength(5);
		expect(splitIntoPieces(text, 2)).toHaveLength(3);
		expect(splitIntoPieces(text, 2).join("")).toBe(text);
		expect(splitIntoPieces("  lead and trail  ", 1)).toEqual(["  lead", " and", " trail", "  "]);
	});
});

describe("request log and routing", () => {
	it("records method, path, headers, raw and parsed body, stream flag, timestamps and outcome", async () => {
		server = await startMockLlmServer({ replies: [{ text: "ok" }] });
		const before = Date.now();
		const body = JSON.stringify({ ...chatRequest, stream: true });
		const response = await post("/v1/chat/completions?trace=1", body, { "X-Custom": "yes" });
		await response.text();
		const entry = await server.waitForSettled(0);
		expect(entry).toMatchObject({
			index: 0,
			method: "POST",
			path: "/v1/chat/completions?trace=1",
			protocol: "openai-chat",
			rawBody: body,
			body: { ...chatRequest, stream: true },
			stream: true,
			status: 200,
			outcome: "completed",
		});
		expect(entry.headers["x-custom"]).toBe("yes");
		expect(entry.receivedAt).toBeGreaterThanOrEqual(before);
		expect(entry.settledAt).toBeGreaterThanOrEqual(entry.receivedAt);
	});

	it("routes by path suffix, so OpenAI-compatible base URLs without /v1 work", async () => {
		server = await startMockLlmServer({ replies: [{ text: "ok" }] });
		const client = new OpenAI({ apiKey: "k", baseURL: server.url("/api/openai"), maxRetries: 0 });
		expect((await client.chat.completions.create(chatRequest)).choices[0]?.message.content).toBe("ok");
		expect(server.requests[0]?.path).toBe("/api/openai/chat/completions");
	});

	it("answers unknown routes with 404 and invalid JSON with a provider-format 400, without consuming replies", async () => {
		server = await startMockLlmServer({ replies: [{ text: "kept" }] });
		expect((await fetch(server.url("/v1/models"))).status).toBe(404);
		const bad = await post("/v1/messages", "{not json");
		expect(bad.status).toBe(400);
		expect(await bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
		expect(server.pending).toBe(1);
		expect(server.requests.map((entry) => [entry.protocol, entry.status, entry.body])).toEqual([
			[undefined, 404, undefined],
			["anthropic-messages", 400, undefined],
		]);
	});

	it("lists served models at GET …/models when given them, behind the key", async () => {
		server = await startMockLlmServer({
			apiKey: "secret",
			models: ["qwen3:8b", { id: "big", max_model_len: 65536 }],
		});
		const listed = await fetch(server.url("/v1/models"), { headers: { authorization: "Bearer secret" } });
		expect(await listed.json()).toMatchObject({
			object: "list",
			data: [
				{ id: "qwen3:8b", object: "model" },
				{ id: "big", max_model_len: 65536 },
			],
		});
		expect((await fetch(server.url("/v1/models"))).status).toBe(401);
		expect(server.requests.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
			["GET", "/v1/models", 200],
			["GET", "/v1/models", 401],
		]);
	});

	it("accepts the key as x-api-key, api-key, x-goog-api-key, bearer token or SigV4 key id, and rejects others without consuming replies", async () => {
		server = await startMockLlmServer({ apiKey: "secret" });
		server.setFactory(() => ({ text: "ok" }));
		const body = JSON.stringify(chatRequest);
		const statuses = [];
		const attempts: Array<Record<string, string>> = [
			{ "x-api-key": "secret" },
			{ "api-key": "secret" },
			{ "x-goog-api-key": "secret" },
			{ authorization: "Bearer secret" },
			{ authorization: "AWS4-HMAC-SHA256 Credential=secret/20260101/us-east-1/bedrock/aws4_request, Signature=x" },
			{ authorization: "Bearer nope" },
			{ authorization: "AWS4-HMAC-SHA256 Credential=other/20260101/us-east-1/bedrock/aws4_request" },
			{},
		];
		for (const headers of attempts) {
			const response = await post("/v1/chat/completions", body, headers);
			await response.text();
			statuses.push(response.status);
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 401, 401, 401]);
	});
});

describe("lifetime", () => {
	it("closes itself after the idle timeout", async () => {
		server = await startMockLlmServer({ idleTimeoutMs: 1 });
		await server.closed;
		await expect(fetch(server.url("/v1/messages"), { method: "POST", body: "{}" })).rejects.toThrow();
	});

	it("closes after its maximum lifetime even with a stalled request, releasing the client", async () => {
		// The lifetime leaves ample room for the request to arrive first; the outcome check depends on that.
		server = await startMockLlmServer({
			idleTimeoutMs: 0,
			maxLifetimeMs: 4000,
			replies: [{ fault: { kind: "stall" } }],
		});
		const error = await chatClient()
			.chat.completions.create(chatRequest)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
		await server.closed;
		expect((await server.waitForSettled(0)).outcome).toBe("server-closed");
	});

	it("close() is idempotent", async () => {
		server = await startMockLlmServer();
		await Promise.all([server.close(), server.close()]);
		await server.close();
	});

	it("does not keep a process alive when a script forgets to close it", async () => {
		expect(existsSync(distEntry), `${distEntry} is missing: run \`npx tsc -b packages/testkit\` first`).toBe(true);
		const script = `import(${JSON.stringify(distEntry)}).then(async (m) => {
			const s = await m.startMockLlmServer({ replies: [{ text: "hello" }] });
			const response = await fetch(s.url("/v1/messages"), { method: "POST", body: "{}" });
			console.log((await response.json()).content[0].text);
		});`;
		const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let output = "";
		child.stdout.on("data", (chunk: Buffer) => {
			output += chunk.toString();
		});
		const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
		expect(output.trim()).toBe("hello");
		expect(code).toBe(0);
	});
});
