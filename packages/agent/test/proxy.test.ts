import { Agent, type AgentEvent, type StreamFn, streamProxy } from "@tau/agent";
import {
	type AssistantMessageEvent,
	createModels,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxToolCall,
	normalizeContext,
	type ToolCall,
	type TranscriptContext,
	zeroUsage,
} from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { collapseUpdates, describeEvents, gate, recordingTool } from "./support/harness.js";
import { forwardingHandler, startServer } from "./support/proxy-server.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(...args: Parameters<typeof startServer>) {
	const server = await startServer(...args);
	servers.push(server);
	return server;
}

const context: TranscriptContext = normalizeContext({ messages: [{ role: "user", content: "hi", timestamp: 1 }] });

function fauxBackend() {
	const models = createModels();
	const faux = fauxProvider({ tokensPerSecond: 0 });
	models.setProvider(faux.provider);
	return { models, faux, model: faux.getModel() };
}

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

/** Writes raw SSE text, then ends the response. */
function rawSse(text: string, status = 200, statusText?: string) {
	return (_request: unknown, response: import("node:http").ServerResponse) => {
		response.writeHead(status, statusText, { "Content-Type": "text/event-stream" });
		response.end(text);
	};
}

const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;

describe("streamProxy request", () => {
	it("posts model, context and only serializable options with a bearer token", async () => {
		const { models, faux, model } = fauxBackend();
		faux.setResponses([fauxAssistantMessage("proxied")]);
		const server = await serve(forwardingHandler(models));
		const controller = new AbortController();
		const stream = streamProxy(model, context, {
			authToken: "secret-token",
			proxyUrl: server.url,
			signal: controller.signal,
			temperature: 0.3,
			sessionId: "s-1",
			reasoning: "low",
		});
		const final = await stream.result();
		expect(final).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "proxied" }] });
		const [request] = server.received;
		expect(request).toMatchObject({ method: "POST", path: "/api/stream", authorization: "Bearer secret-token" });
		expect(request?.body.model).toEqual(JSON.parse(JSON.stringify(model)));
		expect(request?.body.context).toEqual(JSON.parse(JSON.stringify(context)));
		expect(request?.body.options).toEqual({ temperature: 0.3, sessionId: "s-1", reasoning: "low" });
	});
});

describe("streamProxy event rebuilding", () => {
	it("rebuilds partials; tool arguments grow during deltas and equal the server's call at the end", async () => {
		const { models, faux, model } = fauxBackend();
		const call = fauxToolCall(
			"write",
			{ path: "notes/a-rather-long-file-name.md", content: "several words of content to split" },
			{ id: "w1" },
		);
		faux.setResponses([fauxAssistantMessage([fauxText("thinking it over"), call], { stopReason: "toolUse" })]);
		const server = await serve(forwardingHandler(models));
		const events = await collect(streamProxy(model, context, { authToken: "t", proxyUrl: server.url }));
		expect(events[0]?.type).toBe("start");
		for (const event of events.slice(0, -1)) expect(event).toHaveProperty("partial");
		const argumentSizes = events.flatMap((event) => {
			if (event.type !== "toolcall_delta") return [];
			const block = event.partial.content[event.contentIndex] as ToolCall;
			return [JSON.stringify(block.arguments).length];
		});
		expect(argumentSizes.length).toBeGreaterThan(1);
		expect(argumentSizes).toEqual([...argumentSizes].sort((a, b) => a - b));
		const end = events.find((event) => event.type === "toolcall_end");
		expect(end?.type === "toolcall_end" && end.toolCall).toMatchObject({
			id: "w1",
			name: "write",
			arguments: call.arguments,
		});
		const done = events.at(-1);
		expect(done?.type === "done" && done.message.content[1]).toMatchObject({ arguments: call.arguments });
	});

	it("gives each toolcall_delta a new block object", async () => {
		const firstDeltaSeen = gate();
		const server = await serve(async (_request, response) => {
			response.writeHead(200, { "Content-Type": "text/event-stream" });
			response.write(
				frame({ type: "start" }) +
					frame({ type: "toolcall_start", contentIndex: 0, id: "c", toolName: "t" }) +
					frame({ type: "toolcall_delta", contentIndex: 0, delta: '{"a":' }),
			);
			await firstDeltaSeen.promise;
			response.end(
				frame({ type: "toolcall_delta", contentIndex: 0, delta: '"b"}' }) +
					frame({
						type: "toolcall_end",
						contentIndex: 0,
						toolCall: { type: "toolCall", id: "c", name: "t", arguments: { a: "b" } },
					}) +
					frame({ type: "done", reason: "toolUse", usage: zeroUsage() }),
			);
		});
		const { model } = fauxBackend();
		const blocks: unknown[] = [];
		for await (const event of streamProxy(model, context, { authToken: "t", proxyUrl: server.url })) {
			if (event.type !== "toolcall_delta") continue;
			blocks.push(event.partial.content[0]);
			firstDeltaSeen.release();
		}
		expect(blocks).toHaveLength(2);
		expect(blocks[0]).not.toBe(blocks[1]);
		expect(blocks[0]).toMatchObject({ arguments: {} });
		expect(blocks[1]).toMatchObject({ arguments: { a: "b" } });
	});

	it("stores text_end.contentSignature as textSignature and processes a final event without trailing newline", async () => {
		const server = await serve(
			rawSse(
				frame({ type: "start" }) +
					frame({ type: "text_start", contentIndex: 0 }) +
					frame({ type: "text_delta", contentIndex: 0, delta: "signed" }) +
					frame({ type: "text_end", contentIndex: 0, contentSignature: "sig-1" }) +
					`data: ${JSON.stringify({ type: "done", reason: "stop", usage: zeroUsage() })}`,
			),
		);
		const { model } = fauxBackend();
		const events = await collect(streamProxy(model, context, { authToken: "t", proxyUrl: server.url }));
		const textEnd = events.find((event) => event.type === "text_end");
		expect(textEnd?.type === "text_end" && textEnd.content).toBe("signed");
		const done = events.at(-1);
		expect(done?.type).toBe("done");
		expect(done?.type === "done" && done.message.content[0]).toEqual({
			type: "text",
			text: "signed",
			textSignature: "sig-1",
		});
	});
});

describe("streamProxy failures", () => {
	const failureOf = async (handler: Parameters<typeof startServer>[0], signal?: AbortSignal) => {
		const server = await serve(handler);
		const { model } = fauxBackend();
		const events = await collect(streamProxy(model, context, { authToken: "t", proxyUrl: server.url, signal }));
		const last = events.at(-1);
		if (last?.type !== "error") throw new Error(`expected an error event, got ${last?.type}`);
		return last;
	};

	it("uses the JSON error field of a non-2xx response", async () => {
		const last = await failureOf((_request, response) => {
			response.writeHead(401, { "Content-Type": "application/json" });
			response.end(JSON.stringify({ error: "bad token" }));
		});
		expect(last).toMatchObject({
			reason: "error",
			error: { stopReason: "error", errorMessage: "Proxy error: bad token" },
		});
	});

	it("uses the status line when the body is not JSON", async () => {
		const last = await failureOf(rawSse("gateway exploded", 502, "Bad Gateway"));
		expect(last.error.errorMessage).toBe("Proxy error: 502 Bad Gateway");
	});

	it("reports EOF without a terminal event with the exact message", async () => {
		const last = await failureOf(rawSse(frame({ type: "start" })));
		expect(last.error.errorMessage).toBe("Connection closed by proxy server before the response completed");
	});

	it("fails on an event for the wrong block type", async () => {
		const last = await failureOf(
			rawSse(
				frame({ type: "start" }) +
					frame({ type: "text_start", contentIndex: 0 }) +
					frame({ type: "toolcall_delta", contentIndex: 0, delta: "{}" }),
			),
		);
		expect(last.reason).toBe("error");
		expect(last.error.errorMessage).toMatch(/toolCall/);
	});

	it("reports an abort as an aborted terminal event", async () => {
		const controller = new AbortController();
		const last = await failureOf((_request, response) => {
			response.writeHead(200, { "Content-Type": "text/event-stream" });
			response.write(frame({ type: "start" }), () => controller.abort());
		}, controller.signal);
		expect(last).toMatchObject({ reason: "aborted", error: { stopReason: "aborted" } });
	});
});

describe("Agent over streamProxy", () => {
	it("produces the same event sequence as direct streaming", async () => {
		const script = () => [
			fauxAssistantMessage([fauxText("checking"), fauxToolCall("look", { q: "proxy" }, { id: "l1" })], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("all good"),
		];
		const runAgent = async (streamFn: StreamFn, model: ReturnType<typeof fauxBackend>["model"]) => {
			const agent = new Agent({ streamFn, initialState: { model, tools: [recordingTool("look").tool] } });
			const events: AgentEvent[] = [];
			agent.subscribe((event) => {
				events.push(event);
			});
			await agent.prompt("go");
			return { events, agent };
		};

		const direct = fauxBackend();
		direct.faux.setResponses(script());
		const directRun = await runAgent(direct.models.streamSimple.bind(direct.models), direct.model);

		const backend = fauxBackend();
		backend.faux.setResponses(script());
		const server = await serve(forwardingHandler(backend.models));
		const proxied: StreamFn = (model, transcript, options) =>
			streamProxy(model, transcript, { ...options, authToken: "t", proxyUrl: server.url });
		const proxiedRun = await runAgent(proxied, backend.model);

		expect(collapseUpdates(describeEvents(proxiedRun.events))).toEqual(
			collapseUpdates(describeEvents(directRun.events)),
		);
		expect(proxiedRun.agent.state.errorMessage).toBeUndefined();
		const text = (run: typeof directRun) => run.agent.state.messages.at(-1);
		expect(text(proxiedRun)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "all good" }] });
		expect(text(directRun)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "all good" }] });
	});
});
