import {
	type AssistantMessageEvent,
	createModels,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxThinking,
	fauxToolCall,
	getCurrentSystemPrompt,
} from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";

async function events(stream: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const out: AssistantMessageEvent[] = [];
	for await (const e of stream) out.push(e);
	return out;
}

function setup(options: Parameters<typeof fauxProvider>[0] = {}) {
	const models = createModels();
	const faux = fauxProvider(options);
	models.setProvider(faux.provider);
	return { models, faux, model: faux.getModel() };
}

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: Date.now() });

afterEach(() => {
	vi.useRealTimers();
});

describe("faux provider", () => {
	it("has the documented default model", () => {
		const { model, faux } = setup();
		expect(model).toMatchObject({
			id: "faux-1",
			name: "Faux Model",
			reasoning: false,
			input: ["text", "image"],
			contextWindow: 128000,
			maxTokens: 16384,
			baseUrl: "http://localhost:0",
			provider: "faux",
			api: faux.api,
		});
		expect(faux.getModel("nope")).toBeUndefined();
	});

	it("builds scripted messages with the documented shapes", () => {
		const m = fauxAssistantMessage("x");
		expect(m).toMatchObject({
			content: [fauxText("x")],
			api: "faux",
			provider: "faux",
			model: "faux-1",
			stopReason: "stop",
		});
		expect(m.usage.totalTokens).toBe(0);
		const call = fauxToolCall("read", { path: "a" });
		expect(call.id).toMatch(/^tool:\d+:/);
		expect(fauxToolCall("read", {}, { id: "fixed" }).id).toBe("fixed");
		expect(fauxAssistantMessage(call, { stopReason: "toolUse" }).content).toEqual([call]);
	});

	it("consumes the queue in request-start order and counts every request", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([fauxAssistantMessage("one")]);
		faux.appendResponses([fauxAssistantMessage("two")]);
		expect(faux.getPendingResponseCount()).toBe(2);
		const a = models.complete(model, { messages: [user("a")] });
		const b = models.complete(model, { messages: [user("b")] });
		const c = models.complete(model, { messages: [user("c")] });
		const [ra, rb, rc] = await Promise.all([a, b, c]);
		expect(ra.content).toEqual([fauxText("one")]);
		expect(rb.content).toEqual([fauxText("two")]);
		expect(rc.stopReason).toBe("error");
		expect(rc.errorMessage).toBe("No more faux responses queued");
		expect(faux.state.callCount).toBe(3);
		faux.setResponses([fauxAssistantMessage("x"), fauxAssistantMessage("y")]);
		faux.setResponses([fauxAssistantMessage("z")]);
		expect(faux.getPendingResponseCount()).toBe(1);
	});

	it("gives factories the normalized transcript; a throwing factory becomes an error event", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([
			(context) => fauxAssistantMessage(`prompt=${getCurrentSystemPrompt(context.messages)}`),
			() => {
				throw new Error("factory broke");
			},
		]);
		const ok = await models.complete(model, { systemPrompt: "Be brief.", messages: [user("hi")] });
		expect(ok.content).toEqual([fauxText("prompt=Be brief.")]);
		expect(ok.provider).toBe("faux");
		expect(ok.api).toBe(faux.api);
		const evs = await events(models.stream(model, { messages: [user("hi")] }));
		expect(evs.map((e) => e.type)).toEqual(["error"]);
		expect(evs[0]?.type === "error" && evs[0].error.errorMessage).toBe("factory broke");
	});

	it("lets a factory inspect the last tool result of the transcript", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([
			(context) => {
				const last = context.messages.at(-1);
				const text = last?.role === "toolResult" ? last.content.map((b) => (b.type === "text" ? b.text : "")) : [];
				return fauxAssistantMessage(`saw ${last?.role}: ${text.join("")}`);
			},
		]);
		const call = fauxToolCall("read", { path: "a" }, { id: "c1" });
		const reply = await models.complete(model, {
			messages: [
				user("read a"),
				fauxAssistantMessage(call, { stopReason: "toolUse" }),
				{
					role: "toolResult",
					toolCallId: "c1",
					toolName: "read",
					content: [fauxText("file body")],
					isError: false,
					timestamp: Date.now(),
				},
			],
		});
		expect(reply.content).toEqual([fauxText("saw toolResult: file body")]);
	});

	it("streams text, thinking and tool calls with growing arguments", async () => {
		const { models, faux, model } = setup({ tokenSize: { min: 1, max: 1 } });
		const args = { path: "src/index.ts", content: "x".repeat(40) };
		faux.setResponses([
			fauxAssistantMessage(
				[fauxThinking("let me think"), fauxText("hello world!"), fauxToolCall("write", args, { id: "c1" })],
				{
					stopReason: "toolUse",
				},
			),
		]);
		const seen: string[] = [];
		const snapshots: unknown[] = [];
		for await (const e of models.stream(model, { messages: [user("go")] })) {
			seen.push(e.type);
			if (e.type === "toolcall_delta")
				snapshots.push(
					e.partial.content[e.contentIndex]?.type === "toolCall" &&
						(e.partial.content[e.contentIndex] as { arguments: unknown }).arguments,
				);
			if (e.type === "toolcall_end") expect(e.toolCall.arguments).toEqual(args);
			if (e.type === "done") {
				expect(e.reason).toBe("toolUse");
				expect(e.message.content).toEqual([
					fauxThinking("let me think"),
					fauxText("hello world!"),
					fauxToolCall("write", args, { id: "c1" }),
				]);
			}
		}
		expect(seen[0]).toBe("start");
		expect(seen).toContain("thinking_delta");
		expect(seen.filter((t) => t === "toolcall_delta").length).toBeGreaterThan(2);
		expect(snapshots[0]).toEqual({});
		expect(snapshots.at(-1)).toEqual(args);
		expect(seen.at(-1)).toBe("done");
	});

	it("maps scripted error/length/toolUse stop reasons to the right terminal events", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([
			fauxAssistantMessage("partial", { stopReason: "error", errorMessage: "boom" }),
			fauxAssistantMessage("cut", { stopReason: "length" }),
		]);
		const failedEvents = await events(models.stream(model, { messages: [user("a")] }));
		expect(failedEvents[0]?.type).toBe("start");
		const failed = failedEvents.at(-1);
		expect(failed?.type).toBe("error");
		expect(failed?.type === "error" && failed.reason).toBe("error");
		expect(failed?.type === "error" && failed.error).toMatchObject({
			stopReason: "error",
			errorMessage: "boom",
			content: [fauxText("partial")],
		});
		const cut = await events(models.stream(model, { messages: [user("b")] }));
		expect(cut.at(-1)).toMatchObject({ type: "done", reason: "length", message: { stopReason: "length" } });
	});

	it("paces chunks with tokensPerSecond under fake timers and aborts mid-stream", async () => {
		vi.useFakeTimers();
		const { models, faux, model } = setup({ tokensPerSecond: 10, tokenSize: { min: 1, max: 1 } });
		faux.setResponses([fauxAssistantMessage("abcdefghijklmnopqrstuvwxyz")]);
		const controller = new AbortController();
		const stream = models.stream(model, { messages: [user("a")] }, { signal: controller.signal });
		const iterator = stream[Symbol.asyncIterator]();
		const types: string[] = [];
		let streamed = "";
		for (;;) {
			const next = iterator.next();
			await vi.advanceTimersByTimeAsync(100);
			const r = await next;
			if (r.done) break;
			types.push(r.value.type);
			if (r.value.type === "text_delta") {
				streamed += r.value.delta;
				if (streamed.length >= 8) controller.abort();
			}
		}
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(types).not.toContain("text_end");
		expect(result.content).toEqual([fauxText(streamed)]);
		expect(streamed.length).toBeLessThan(26);
	});

	it("estimates usage and simulates prompt caching per session", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([fauxAssistantMessage("12345678"), fauxAssistantMessage("ok"), fauxAssistantMessage("ok")]);
		const first = await models.complete(model, { messages: [user("x".repeat(400))] }, { sessionId: "s" });
		expect(first.usage.cacheWrite).toBeGreaterThan(90);
		expect(first.usage.output).toBe(2);
		const second = await models.complete(
			model,
			{ messages: [user("x".repeat(400)), first, user("more")] },
			{ sessionId: "s" },
		);
		expect(second.usage.input).toBe(0);
		expect(second.usage.cacheRead).toBeGreaterThan(90);
		const uncached = await models.complete(
			model,
			{ messages: [user("x".repeat(400))] },
			{ sessionId: "s", cacheRetention: "none" },
		);
		expect(uncached.usage.cacheRead).toBe(0);
		expect(uncached.usage.input).toBeGreaterThan(90);
	});

	it("leaves scripted messages that predate the stream untimed", async () => {
		const { models, faux, model } = setup();
		faux.setResponses([fauxAssistantMessage("old", { timestamp: Date.now() - 10_000 })]);
		const result = await models.complete(model, { messages: [user("a")] });
		expect(result.durationMs).toBeUndefined();
	});

	it("supports deferred responses", async () => {
		const { models, faux, model } = setup({ deferred: { pendingFetches: 1 } });
		faux.setResponses([fauxAssistantMessage("later")]);
		const first = await models.completeSimple(model, { messages: [user("a")] }, { deferred: true });
		expect(first.stopReason).toBe("deferred");
		const handle = first.deferred!;
		expect((await models.fetchDeferred(model, handle)).stopReason).toBe("deferred");
		expect((await models.fetchDeferred(model, handle)).content).toEqual([fauxText("later")]);
		expect(faux.state.deferredFetchCount).toBe(2);
		await models.cancelDeferred(model, handle);
		expect(faux.state.cancelledDeferred).toEqual([handle]);
	});
});
