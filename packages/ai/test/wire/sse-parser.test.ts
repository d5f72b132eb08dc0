import { describe, expect, it } from "vitest";
import { type SseMessage, SseParser } from "../../src/api/shared/sse-reader.js";

/** Feeds `text` as UTF-8 split at the given byte offsets and collects every message. */
function parse(text: string, cuts: readonly number[] = []): SseMessage[] {
	const bytes = Buffer.from(text, "utf8");
	const parser = new SseParser();
	const messages: SseMessage[] = [];
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		messages.push(...parser.push(new Uint8Array(bytes.subarray(start, cut))));
		start = cut;
	}
	messages.push(...parser.end());
	return messages;
}

/** Every way to cut `text` in two. */
function everySplit(text: string): number[][] {
	return Array.from({ length: Buffer.byteLength(text) + 1 }, (_, i) => [i]);
}

describe("SSE parsing", () => {
	it("reads event and data fields; a blank line ends a message; comments and other fields are ignored", () => {
		const text = ': comment\nid: 7\nretry: 100\nevent: ping\ndata: {"a":1}\n\ndata:no-space\n\n';
		expect(parse(text)).toEqual([
			{ event: "ping", data: '{"a":1}' },
			{ event: null, data: "no-space" },
		]);
	});

	it("joins data lines with LF and keeps a message that has only an event name", () => {
		expect(parse("data: one\ndata: two\n\nevent: done\n\n")).toEqual([
			{ event: null, data: "one\ntwo" },
			{ event: "done", data: "" },
		]);
	});

	it("reads a field name exactly: near misses are ignored, a name without a colon has an empty value", () => {
		const text =
			"dat: a\ndatas: b\nData: c\nevents: d\neven: e\ndata\n\n" +
			"event\ndata:\ndata:  two: colons\n\nevent:x\ndata: y\n\n";
		expect(parse(text)).toEqual([
			{ event: null, data: "" },
			{ event: "", data: "\n two: colons" },
			{ event: "x", data: "y" },
		]);
		for (const cuts of everySplit(text)) expect(parse(text, cuts), JSON.stringify(cuts)).toEqual(parse(text));
	});

	it("gives the same messages however the bytes are cut, across LF, CRLF and CR line ends", () => {
		for (const text of [
			"event: a\ndata: é€😀\n\nevent: b\ndata: x\n\n",
			"event: a\r\ndata: é€😀\r\n\r\nevent: b\r\ndata: x\r\n\r\n",
			"event: a\rdata: é€😀\r\revent: b\rdata: x\r\r",
		]) {
			const whole = parse(text);
			expect(whole).toEqual([
				{ event: "a", data: "é€😀" },
				{ event: "b", data: "x" },
			]);
			for (const cuts of everySplit(text)) expect(parse(text, cuts), JSON.stringify(cuts)).toEqual(whole);
		}
	});

	it("a byte-per-chunk stream decodes multi-byte characters whole", () => {
		const text = "data: 日本語 🎉\n\n";
		const cuts = Array.from({ length: Buffer.byteLength(text) }, (_, i) => i + 1);
		expect(parse(text, cuts)).toEqual([{ event: null, data: "日本語 🎉" }]);
	});

	it("strips a byte order mark at the start of a line and keeps invalid UTF-8 as replacement characters", () => {
		expect(parse("\uFEFFdata: x\n\n")).toEqual([{ event: null, data: "x" }]);
		const parser = new SseParser();
		const invalid = new Uint8Array([...Buffer.from("data: "), 0xff, 0x0a, 0x0a]);
		expect(parser.push(invalid)).toEqual([{ event: null, data: "\uFFFD" }]);
	});

	it("at the end, complete lines still count and an unterminated message is dropped", () => {
		expect(parse("data: kept\n\ndata: cut off")).toEqual([{ event: null, data: "kept" }]);
		expect(parse("data: last\n\n\r")).toEqual([{ event: null, data: "last" }]);
	});
});
