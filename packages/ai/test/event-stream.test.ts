import { type AssistantMessage, AssistantMessageEventStream, EventStream, zeroUsage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { FifoQueue } from "../src/stream/fifo-queue.js";

type Ev = { kind: "item"; n: number } | { kind: "end"; total: number };
const numbers = () =>
	new EventStream<Ev, number>(
		(e) => e.kind === "end",
		(e) => (e.kind === "end" ? e.total : -1),
	);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const e of iterable) out.push(e);
	return out;
}

function message(overrides: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "faux",
		provider: "faux",
		model: "m",
		usage: zeroUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
		...overrides,
	};
}

describe("EventStream", () => {
	it("delivers events queued before end() to a consumer that starts afterwards", async () => {
		const s = numbers();
		s.push({ kind: "item", n: 1 });
		s.push({ kind: "item", n: 2 });
		s.push({ kind: "item", n: 3 });
		s.end();
		expect(await collect(s)).toEqual([1, 2, 3].map((n) => ({ kind: "item", n })));
	});

	it("wakes a waiting consumer on push and splits events between concurrent iterators", async () => {
		const s = numbers();
		const a = s[Symbol.asyncIterator]();
		const b = s[Symbol.asyncIterator]();
		const pa = a.next();
		const pb = b.next();
		s.push({ kind: "item", n: 1 });
		s.push({ kind: "item", n: 2 });
		expect((await pa).value).toEqual({ kind: "item", n: 1 });
		expect((await pb).value).toEqual({ kind: "item", n: 2 });
	});

	it("ignores pushes after the terminal event and resolves result() with it", async () => {
		const s = numbers();
		s.push({ kind: "item", n: 1 });
		s.push({ kind: "end", total: 1 });
		s.push({ kind: "item", n: 99 });
		s.push({ kind: "end", total: 2 });
		expect(await s.result()).toBe(1);
		expect(await collect(s)).toEqual([
			{ kind: "item", n: 1 },
			{ kind: "end", total: 1 },
		]);
		expect(s.result()).toBe(s.result());
	});

	it("end(result) resolves result() without a terminal event; the first resolution wins", async () => {
		const s = numbers();
		s.end(7);
		s.end(8);
		expect(await s.result()).toBe(7);
	});

	it("wakes all waiting consumers when the stream ends", async () => {
		const s = numbers();
		const waits = [s[Symbol.asyncIterator]().next(), s[Symbol.asyncIterator]().next()];
		s.end();
		expect((await Promise.all(waits)).map((r) => r.done)).toEqual([true, true]);
	});

	it("drains a 200k backlog with amortized O(1) element moves", async () => {
		const queue = new FifoQueue<number>();
		const n = 200_000;
		for (let i = 0; i < n; i++) queue.push(i);
		let sum = 0;
		for (let v = queue.shift(); v !== undefined; v = queue.shift()) sum += v;
		expect(sum).toBe((n * (n - 1)) / 2);
		expect(queue.moves).toBeLessThanOrEqual(n);

		const s = numbers();
		for (let i = 0; i < n; i++) s.push({ kind: "item", n: i });
		s.end();
		let count = 0;
		for await (const _ of s) count++;
		expect(count).toBe(n);
	});
});

describe("AssistantMessageEventStream", () => {
	it("stamps durationMs on a terminal message created during the stream", async () => {
		const s = new AssistantMessageEventStream();
		const m = message();
		s.push({ type: "start", partial: m });
		s.push({ type: "done", reason: "stop", message: m });
		const result = await s.result();
		expect(result).toBe(m);
		expect(result.durationMs).toBeGreaterThanOrEqual(0);
	});

	it("leaves durationMs untouched when already set or when the message predates the stream", async () => {
		const preset = new AssistantMessageEventStream();
		preset.push({ type: "done", reason: "stop", message: message({ durationMs: 1234 }) });
		expect((await preset.result()).durationMs).toBe(1234);

		const old = new AssistantMessageEventStream();
		const scripted = message({ timestamp: Date.now() - 60_000 });
		old.push({ type: "error", reason: "error", error: { ...scripted, stopReason: "error", errorMessage: "x" } });
		expect((await old.result()).durationMs).toBeUndefined();
	});

	it("stamps a result passed to end()", async () => {
		const s = new AssistantMessageEventStream();
		s.end(message());
		expect((await s.result()).durationMs).toBeGreaterThanOrEqual(0);
	});
});
