import Anthropic from "@anthropic-ai/sdk";
import { type MockLlmServer, type ProtocolName, startMockLlmServer } from "@tau/testkit";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";

/** The pieces of an SDK error these tests look at (both SDKs expose the same shape). */
interface SdkError {
	status?: number;
	headers?: Headers;
	message: string;
	error?: unknown;
}

/** One protocol driven through its official SDK. */
interface Driver {
	protocol: Extract<ProtocolName, "anthropic-messages" | "openai-chat" | "openai-responses">;
	/** Streams one reply, returning the wire event types seen before the stream ended. */
	stream(signal?: AbortSignal, onEvent?: () => void): Promise<string[]>;
	/** Sends a non-streaming request. */
	create(): Promise<unknown>;
	/** Consumes a stream through the SDK's accumulating helper. */
	final(): Promise<unknown>;
	/** The terminal event type of a complete stream. */
	terminal: string;
}

/** The type of each item of an SDK stream, in order; `onEvent` runs after each. */
async function streamedTypes<T>(
	stream: AsyncIterable<T>,
	typeOf: (item: T) => string,
	onEvent: (() => void) | undefined,
): Promise<string[]> {
	const types: string[] = [];
	for await (const item of stream) {
		types.push(typeOf(item));
		onEvent?.();
	}
	return types;
}

let server: MockLlmServer;
afterEach(() => server?.close());

const prompt = "hi";

function anthropicDriver(): Driver {
	const client = new Anthropic({ apiKey: "k", baseURL: server.baseUrl, maxRetries: 0 });
	const params = { model: "claude-test", max_tokens: 100, messages: [{ role: "user" as const, content: prompt }] };
	return {
		protocol: "anthropic-messages",
		async stream(signal, onEvent) {
			const stream = await client.messages.create({ ...params, stream: true }, { signal });
			return streamedTypes(stream, (event) => event.type, onEvent);
		},
		create: () => client.messages.create(params),
		final: () => client.messages.stream(params).finalMessage(),
		terminal: "message_stop",
	};
}

function chatDriver(): Driver {
	const client = new OpenAI({ apiKey: "k", baseURL: server.url("/v1"), maxRetries: 0 });
	const params = { model: "gpt-test", messages: [{ role: "user" as const, content: prompt }] };
	return {
		protocol: "openai-chat",
		async stream(signal, onEvent) {
			const stream = await client.chat.completions.create({ ...params, stream: true }, { signal });
			return streamedTypes(stream, (chunk) => (chunk.choices[0]?.finish_reason ? "finish" : "chunk"), onEvent);
		},
		create: () => client.chat.completions.create(params),
		final: () => client.chat.completions.stream(params).finalChatCompletion(),
		terminal: "finish",
	};
}

function responsesDriver(): Driver {
	const client = new OpenAI({ apiKey: "k", baseURL: server.url("/v1"), maxRetries: 0 });
	const params = { model: "gpt-test", input: prompt };
	return {
		protocol: "openai-responses",
		async stream(signal, onEvent) {
			const stream = await client.responses.create({ ...params, stream: true }, { signal });
			return streamedTypes(stream, (event) => event.type, onEvent);
		},
		create: () => client.responses.create(params),
		final: () => client.responses.stream(params).finalResponse(),
		terminal: "response.completed",
	};
}

const drivers: Array<[Driver["protocol"], () => Driver]> = [
	["anthropic-messages", anthropicDriver],
	["openai-chat", chatDriver],
	["openai-responses", responsesDriver],
];

async function failure(promise: Promise<unknown>): Promise<SdkError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(Error);
	return error as SdkError;
}

const longTurn = { text: { tokens: 400 }, chunkSize: 1 };

describe.each(drivers)("%s faults", (protocol, makeDriver) => {
	async function setup(): Promise<Driver> {
		server = await startMockLlmServer();
		return makeDriver();
	}

	it("serves an HTTP error in the provider's format with retry-after visible on the SDK error", async () => {
		const driver = await setup();
		server.enqueue({ fault: { kind: "http", status: 429, retryAfter: 7 } });
		const error = await failure(driver.stream());
		expect(error.status).toBe(429);
		expect(error.headers?.get("retry-after")).toBe("7");
		if (protocol === "anthropic-messages") {
			expect(error.error).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
		} else {
			expect(error).toMatchObject({ code: "rate_limit_exceeded", type: "requests" });
		}
		expect(server.requests[0]?.status).toBe(429);
	});

	it("serves a custom error body, type and extra headers", async () => {
		const driver = await setup();
		server.enqueue({
			fault: {
				kind: "http",
				status: 503,
				message: "try again soon",
				headers: { "retry-after-ms": "250", "x-should-retry": "true" },
			},
		});
		const error = await failure(driver.create());
		expect(error.status).toBe(503);
		expect(error.message).toContain("try again soon");
		expect(error.headers?.get("retry-after-ms")).toBe("250");
		expect(error.headers?.get("x-should-retry")).toBe("true");
	});

	it("surfaces the provider's context-overflow message", async () => {
		const driver = await setup();
		server.enqueue({ fault: { kind: "overflow" } });
		const error = await failure(driver.stream());
		expect(error.status).toBe(400);
		const expected = {
			"anthropic-messages": "prompt is too long: 213462 tokens > 200000 maximum",
			"openai-chat":
				"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
			"openai-responses": "Your input exceeds the context window of this model.",
		}[protocol];
		expect(error.message).toContain(expected);
		if (protocol !== "anthropic-messages") expect(error).toMatchObject({ code: "context_length_exceeded" });
	});

	it("disconnects after N bytes, which makes the SDK stream reject after the events already sent", async () => {
		const driver = await setup();
		server.enqueue({ ...longTurn, fault: { kind: "disconnect", afterBytes: 1500 } });
		let seen = 0;
		const error = await failure(driver.stream(undefined, () => seen++));
		expect(error.message).toMatch(/terminated|other side closed|socket/i);
		expect(seen).toBeGreaterThan(0);
		expect((await server.waitForSettled(0)).outcome).toBe("disconnected");
	});

	it("disconnects after N events, so the SDK sees exactly those events before the stream rejects", async () => {
		const driver = await setup();
		server.enqueue({ ...longTurn, fault: { kind: "disconnect", afterEvents: 3 } });
		let seen = 0;
		await failure(driver.stream(undefined, () => seen++));
		// The Anthropic SDK drops the `ping` event that follows `message_start`.
		expect(seen).toBe(protocol === "anthropic-messages" ? 2 : 3);
	});

	it("disconnects a non-streaming reply mid-body, which makes the SDK request reject", async () => {
		const driver = await setup();
		server.enqueue({ ...longTurn, fault: { kind: "disconnect", afterBytes: 20 } });
		await failure(driver.create());
		expect((await server.waitForSettled(0)).outcome).toBe("disconnected");
	});

	it("truncates cleanly after N bytes: the stream ends without its terminal event and the SDK helper rejects", async () => {
		const driver = await setup();
		server.enqueue(
			{ ...longTurn, fault: { kind: "truncate", afterBytes: 1500 } },
			{ ...longTurn, fault: { kind: "truncate", afterBytes: 1500 } },
		);
		const types = await driver.stream();
		expect(types.length).toBeGreaterThan(0);
		expect(types).not.toContain(driver.terminal);
		if (protocol === "openai-responses") {
			// The Responses helper returns its last snapshot instead of rejecting.
			expect(await driver.final()).toMatchObject({ status: "in_progress" });
		} else {
			await failure(driver.final());
		}
	});

	it("omits the stop event while the rest of the stream stays well-formed", async () => {
		const driver = await setup();
		server.enqueue({ text: "a b", fault: { kind: "omitStop" } }, { text: "a b", fault: { kind: "omitStop" } });
		const types = await driver.stream();
		expect(types.length).toBeGreaterThan(2);
		expect(types).not.toContain(driver.terminal);
		expect((await server.waitForSettled(0)).outcome).toBe("completed");
		if (protocol === "openai-responses") {
			expect(await driver.final()).toMatchObject({ status: "in_progress" });
		} else {
			await failure(driver.final());
		}
	});

	it("stalls mid-stream until the client aborts", async () => {
		const driver = await setup();
		server.enqueue({ ...longTurn, fault: { kind: "stall", afterBytes: 1500 } });
		const controller = new AbortController();
		let firstEvent!: () => void;
		const eventSeen = new Promise<void>((resolve) => {
			firstEvent = resolve;
		});
		const streaming = driver.stream(controller.signal, () => firstEvent()).catch((e: unknown) => e);
		// The events before the cut are delivered; the abort then releases the hung stream.
		await eventSeen;
		controller.abort();
		await streaming;
		expect((await server.waitForSettled(0)).outcome).toBe("client-closed");
	});

	it("stalls before the headers until the client aborts the request", async () => {
		const driver = await setup();
		server.enqueue({ text: "never", fault: { kind: "stall" } });
		const controller = new AbortController();
		const streaming = failure(driver.stream(controller.signal));
		await server.waitForRequest(0);
		controller.abort();
		const error = await streaming;
		expect(error.constructor.name).toBe("APIUserAbortError");
		const entry = await server.waitForSettled(0);
		expect(entry.outcome).toBe("client-closed");
		expect(entry.status).toBeUndefined();
	});

	it("releases a stalled request when the server closes", async () => {
		const driver = await setup();
		server.enqueue({ text: "never", fault: { kind: "stall" } });
		const streaming = failure(driver.stream());
		await server.waitForRequest(0);
		await server.close();
		const error = await streaming;
		expect(error.constructor.name).toBe("APIConnectionError");
		expect(server.requests[0]?.outcome).toBe("server-closed");
	});

	it("injects a malformed SSE line that makes the SDK stream fail to parse", async () => {
		const driver = await setup();
		server.enqueue({ text: "a b c", fault: { kind: "malformed", afterEvents: 2 } });
		const error = await failure(driver.stream());
		expect(error).toBeInstanceOf(SyntaxError);
	});

	it("sends a custom malformed line verbatim", async () => {
		const driver = await setup();
		const line = protocol === "anthropic-messages" ? "event: message_delta\ndata: {oops" : "data: {oops";
		server.enqueue({ text: "a", fault: { kind: "malformed", afterEvents: 0, line } });
		await failure(driver.stream());
		expect(server.requests[0]?.outcome).toBe("completed");
	});
});

describe("raw replies", () => {
	it("writes a raw SSE body verbatim for wire shapes the turn model does not cover", async () => {
		server = await startMockLlmServer();
		const driver = chatDriver();
		const chunk = (delta: unknown, finish: string | null) =>
			`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
		server.enqueue({ raw: [chunk({ role: "assistant", content: "x" }, null), chunk({}, "end"), "data: [DONE]\n\n"] });
		expect(await driver.stream()).toEqual(["chunk", "finish"]);
	});
});
