import {
	type JsonChange,
	parseJsonWithRepair,
	parseStreamingJson,
	parseToolCallArguments,
	repairJson,
	StreamingJsonParser,
	ToolCallArgumentsStream,
} from "@tau/ai";
import { describe, expect, it } from "vitest";

function snapshotsOf(chunks: string[]) {
	const stream = new ToolCallArgumentsStream();
	return chunks.map((chunk) => stream.append(chunk));
}

function parseWhole(text: string) {
	const parser = new StreamingJsonParser();
	parser.append(text);
	return parser.snapshot();
}

describe("ToolCallArgumentsStream", () => {
	it("shows partial arguments as they stream, holding back incomplete escapes", () => {
		const chunks = ['{"pa', 'th": "src/in', 'dex.ts", "cont', 'ent": "a\\', 'nb"'];
		expect(snapshotsOf(chunks)).toEqual([
			{},
			{ path: "src/in" },
			{ path: "src/index.ts" },
			{ path: "src/index.ts", content: "a" },
			{ path: "src/index.ts", content: "a\nb" },
		]);
		const stream = new ToolCallArgumentsStream();
		for (const chunk of chunks) stream.append(chunk);
		const finished = stream.finish();
		expect(finished.arguments).toEqual({});
		expect(finished.argumentsError).toContain(`Received arguments:\n${chunks.join("")}`);
	});

	it("returns immutable snapshots that share completed parts", () => {
		const stream = new ToolCallArgumentsStream();
		const first = stream.append('{"done": {"a": [1, 2]}, "open": "x');
		const copy = structuredClone(first);
		const second = stream.append('yz"');
		expect(first).toEqual(copy);
		expect(second).not.toBe(first);
		expect(second.done).toBe(first.done);
		expect(second.open).toBe("xyz");
		expect(stream.append("   ")).toBe(second);
		const third = stream.append(', "more": "q');
		expect(stream.append("\\")).toBe(third);
	});

	it("continues with replace() when the full text extends what was read, else restarts", () => {
		const stream = new ToolCallArgumentsStream();
		stream.append('{"a": 1');
		expect(stream.replace('{"a": 1, "b": 2}')).toEqual({ delta: ', "b": 2}', arguments: { a: 1, b: 2 } });
		expect(stream.replace('{"a": 1, "b": 2}').delta).toBe("");
		expect(stream.replace('{"z": true}')).toEqual({ delta: undefined, arguments: { z: true } });
		expect(stream.text).toBe('{"z": true}');
		expect(stream.finish()).toEqual({ arguments: { z: true } });
	});

	it("gives {} while the root is not an object", () => {
		expect(snapshotsOf(["[1, ", "2]"])).toEqual([{}, {}]);
	});
});

describe("StreamingJsonParser", () => {
	it("parses the same final value however the text is chunked", () => {
		const value = {
			s: 'he said "hi"\n\u00e9\ud83d\ude00',
			n: -12.5e2,
			b: [true, false, null],
			o: { deep: [{ x: 1 }] },
			e: "",
		};
		const text = JSON.stringify(value, null, 1);
		expect(parseWhole(text)).toEqual(value);
		const parser = new StreamingJsonParser();
		for (const c of text) parser.append(c);
		expect(parser.snapshot()).toEqual(value);
	});

	it("previews unterminated numbers and literals", () => {
		expect(parseWhole('{"n": 12')).toEqual({ n: 12 });
		expect(parseWhole('{"n": 1.5e')).toEqual({ n: 1.5 });
		expect(parseWhole('{"t": tr')).toEqual({ t: true });
		expect(parseWhole('{"v": nul')).toEqual({ v: null });
		expect(parseWhole('{"v": -')).toEqual({});
	});

	it("is lenient with malformed text", () => {
		expect(parseWhole('{"a": "line\nbreak"}')).toEqual({ a: "line\nbreak" });
		expect(parseWhole('{"a": "C:\\dir"}')).toEqual({ a: "C:\\dir" });
		expect(parseWhole('{"a": "\\uZZ", "b": "\\u", "c": 1}')).toEqual({ a: "\\uZZ", b: "\\u", c: 1 });
		expect(parseWhole('{"a": 1 "b": 2}')).toEqual({ a: 1, b: 2 });
		expect(parseWhole('{"a" 1}')).toEqual({ a: 1 });
		expect(parseWhole('{"a": 1} trailing {"b": 2}')).toEqual({ a: 1 });
		expect(parseWhole('{"a": NaN, "b": Infinity, "c": 3}')).toEqual({ c: 3 });
		expect(parseWhole("[1, oops, 2]")).toEqual([1, 2]);
		expect(parseWhole('{"__proto__": {"x": 1}}')).toEqual(JSON.parse('{"__proto__": {"x": 1}}'));
	});

	it("never throws on random input", () => {
		let seed = 42;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2 ** 31;
			return seed / 2 ** 31;
		};
		const alphabet = '{}[]":,\\ntrue0123456789.-eE ufalse\u0000\ud800';
		for (let round = 0; round < 60; round++) {
			const parser = new StreamingJsonParser();
			for (let i = 0; i < 50; i++) {
				let chunk = "";
				const length = Math.floor(random() * 8);
				for (let j = 0; j < length; j++) chunk += alphabet[Math.floor(random() * alphabet.length)];
				expect(() => parser.append(chunk)).not.toThrow();
				expect(() => parser.snapshot()).not.toThrow();
			}
		}
	});

	it("reports set for new values, append for string growth, numbers only when finished", () => {
		const parser = new StreamingJsonParser();
		const all: JsonChange[][] = [];
		for (const chunk of ['{"a": "he', 'llo", "n": 4', '2, "o": {', "}}"]) all.push([...parser.append(chunk)]);
		expect(all).toEqual([
			[
				{ kind: "set", path: [], value: {} },
				{ kind: "set", path: ["a"], value: "he" },
			],
			[{ kind: "append", path: ["a"], text: "llo" }],
			[
				{ kind: "set", path: ["n"], value: 42 },
				{ kind: "set", path: ["o"], value: {} },
			],
			[],
		]);
		expect(new StreamingJsonParser().append("{")).toEqual([{ kind: "set", path: [], value: {} }]);
	});

	it("reports containers nested deeper than 32 levels as one set when they close", () => {
		const parser = new StreamingJsonParser();
		const open = "[".repeat(34);
		const changes = parser.append(open + "1" + "]".repeat(34));
		const sets = changes.filter((c) => c.kind === "set");
		expect(sets.filter((c) => c.path.length < 32).length).toBe(32);
		const deep = sets.find((c) => c.path.length === 32);
		expect(deep).toEqual({ kind: "set", path: new Array(32).fill(0), value: [[1]] });
	});

	it("does linear work for 1 MB fed one character at a time", () => {
		const content = "x".repeat(1_000_000);
		const text = JSON.stringify({ path: "a.txt", content, list: Array.from({ length: 2000 }, (_, i) => i) });
		const parser = new StreamingJsonParser();
		for (let i = 0; i < text.length; i++) {
			parser.append(text[i] as string);
			if (i % 7 === 0) parser.snapshot();
		}
		expect(parser.work.chars).toBe(text.length);
		expect(parser.work.copies).toBeLessThan(text.length * 2);
		expect(parser.snapshot()).toEqual(JSON.parse(text));
	});

	it("keeps previews cheap while a huge container stays open", () => {
		const parser = new StreamingJsonParser();
		parser.append("[");
		let previews = 0;
		for (let i = 0; i < 20_000; i++) {
			parser.append(`${i},`);
			if (parser.snapshot() !== undefined) previews++;
		}
		expect(previews).toBe(20_000);
		expect(parser.work.copies).toBeLessThan(20_000 * 100);
	});
});

describe("final parse helpers", () => {
	it("parseToolCallArguments handles empty, non-objects and repairable text", () => {
		expect(parseToolCallArguments("")).toEqual({ arguments: {} });
		expect(parseToolCallArguments("  \n")).toEqual({ arguments: {} });
		const array = parseToolCallArguments("[1]");
		expect(array.arguments).toEqual({});
		expect(array.argumentsError).toMatch(/object[\s\S]*Received arguments:\n\[1\]$/);
		expect(parseToolCallArguments('{"a": "x\ny\t\\d"}')).toEqual({ arguments: { a: "x\ny\t\\d" } });
	});

	it("repairJson only touches strings", () => {
		expect(repairJson('{"a": "x\ny"}')).toBe('{"a": "x\\ny"}');
		expect(repairJson('{"a": "\\d \\u00e9 \u0001"}')).toBe('{"a": "\\\\d \\u00e9 \\u0001"}');
		expect(repairJson('{\n"a": 1}')).toBe('{\n"a": 1}');
		expect(() => parseJsonWithRepair("{nope")).toThrow();
	});

	it("parseStreamingJson always returns an object", () => {
		expect(parseStreamingJson('{"a": [1, 2')).toEqual({ a: [1, 2] });
		expect(parseStreamingJson("garbage")).toEqual({});
	});
});
