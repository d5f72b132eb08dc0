import { StreamingJsonParser, ToolCallArgumentsStream } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { FlatteningText } from "../src/json/flattening-text.js";

describe("FlatteningText (bounded ropes for streamed text)", () => {
	it("flattens one-character appends geometrically: few copies, linear total work", () => {
		const text = new FlatteningText();
		const length = 1_000_000;
		let appendsSinceFlatten = 0;
		let copied = 0;
		const flattenedAt: number[] = [];
		for (let i = 0; i < length; i++) {
			appendsSinceFlatten++;
			if (text.append(String.fromCharCode(97 + (i % 26)))) {
				flattenedAt.push(i + 1);
				copied += i + 1;
				// Never more unflattened rope nodes than max(1024, length / 64).
				expect(appendsSinceFlatten).toBeLessThanOrEqual(Math.max(1024, (i + 1) / 64) + 1);
				appendsSinceFlatten = 0;
			}
		}
		expect(appendsSinceFlatten).toBeLessThanOrEqual(Math.max(1024, length / 64) + 1);
		expect(flattenedAt.length).toBeGreaterThan(10);
		expect(flattenedAt.length).toBeLessThan(400);
		expect(copied).toBeLessThan(70 * length);
		expect(text.value).toHaveLength(length);
		expect(text.value.slice(0, 3)).toBe("abc");
		expect(text.value.slice(-2)).toBe(String.fromCharCode(97 + ((length - 2) % 26), 97 + ((length - 1) % 26)));
	});

	it("never copies text that arrives in large pieces", () => {
		const text = new FlatteningText();
		const piece = "y".repeat(256);
		let flattens = 0;
		for (let i = 0; i < 1000; i++) if (text.append(piece)) flattens++;
		expect(flattens).toBe(0);
		expect(text.value).toBe(piece.repeat(1000));
	});
});

describe("streamed tool arguments flatten their open strings", () => {
	// No escapes: every string character arrives as its own piece only when the deltas are that small.
	const content = "line of generated code; ".repeat(20_000);
	const text = JSON.stringify({ path: "a.ts", content });
	const contentStart = text.indexOf('"content":"') + '"content":"'.length;

	it("the parser flattens a long string fed one character at a time, and earlier snapshots stay as they were", () => {
		const parser = new StreamingJsonParser();
		const early: { snapshot: unknown; copy: unknown }[] = [];
		for (let i = 0; i < text.length; i++) {
			parser.append(text[i] as string);
			const snapshot = parser.snapshot();
			if (i % 50_000 === 49_999) early.push({ snapshot, copy: structuredClone(snapshot) });
		}
		expect(parser.work.flattens).toBeGreaterThan(10);
		expect(parser.work.flattens).toBeLessThan(400);
		expect(parser.snapshot()).toEqual({ path: "a.ts", content });
		for (const { snapshot, copy } of early) expect(snapshot).toEqual(copy);
		expect(early[0]?.snapshot).toEqual({ path: "a.ts", content: content.slice(0, 50_000 - contentStart) });
	});

	it("the parser does not flatten strings that arrive in large deltas", () => {
		const parser = new StreamingJsonParser();
		for (let i = 0; i < text.length; i += 256) parser.append(text.slice(i, i + 256));
		expect(parser.work.flattens).toBe(0);
		expect(parser.snapshot()).toEqual({ path: "a.ts", content });
	});

	it("ToolCallArgumentsStream keeps the full raw text across flattens", () => {
		const stream = new ToolCallArgumentsStream();
		for (let i = 0; i < text.length; i++) stream.append(text[i] as string);
		expect(stream.text).toBe(text);
		expect(stream.replace(`${text.slice(0, -1)}, "x": 1}`).delta).toBeUndefined();
		expect(stream.text).toBe(`${text.slice(0, -1)}, "x": 1}`);
		expect(stream.finish().arguments).toEqual({ path: "a.ts", content, x: 1 });
	});
});
