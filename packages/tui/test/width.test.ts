import {
	CURSOR_MARKER,
	extractSegments,
	getOsc8LinkAtColumn,
	hyperlink,
	normalizeTerminalOutput,
	replaceControlCharacters,
	sliceByColumn,
	stripTerminalSequences,
	truncateToWidth,
	visibleWidth,
	wrapTextWithAnsi,
} from "@tau/tui";
import { describe, expect, it } from "vitest";

describe("visibleWidth", () => {
	it("ignores SGR and counts ASCII", () => {
		expect(visibleWidth("\x1b[31mHello\x1b[0m")).toBe(5);
	});
	it("counts CJK as two columns each", () => {
		expect(visibleWidth("日本語")).toBe(6);
		expect(visibleWidth("日本")).toBe(4);
	});
	it("treats emoji sequences as one wide cell", () => {
		expect(visibleWidth("👨‍👩‍👧")).toBe(2);
		expect(visibleWidth("🇯🇵")).toBe(2);
		expect(visibleWidth("🇯")).toBe(2);
		expect(visibleWidth("👍🏽")).toBe(2);
	});
	it("gives combining marks no width", () => {
		expect(visibleWidth("e\u0301")).toBe(1);
	});
	it("counts TAB as three columns", () => {
		expect(visibleWidth("a\tb")).toBe(5);
	});
	it("ignores OSC 8 link sequences and APC markers", () => {
		expect(visibleWidth(hyperlink("docs", "https://example.com"))).toBe(4);
		expect(visibleWidth(`ab${CURSOR_MARKER}c`)).toBe(3);
		expect(visibleWidth(`日${CURSOR_MARKER}本`)).toBe(4);
	});
});

describe("truncateToWidth", () => {
	it("returns text unchanged when it fits, padded on request", () => {
		expect(truncateToWidth("Hello", 10)).toBe("Hello");
		expect(truncateToWidth("Hello", 8, "...", true)).toBe("Hello   ");
	});
	it("cuts with ellipsis and resets", () => {
		expect(truncateToWidth("Hello World", 8)).toBe("Hello\x1b[0m...\x1b[0m");
		expect(truncateToWidth("Hello World", 8, "")).toBe("Hello Wo\x1b[0m");
	});
	it("never splits a wide character", () => {
		const out = truncateToWidth("日本語テキスト", 6, "");
		expect(stripTerminalSequences(out)).toBe("日本語");
		const odd = truncateToWidth("日本語テキスト", 5, "");
		expect(stripTerminalSequences(odd)).toBe("日本");
		expect(visibleWidth(odd)).toBe(4);
	});
	it("closes an open OSC 8 link at the cut", () => {
		const out = truncateToWidth(hyperlink("a long link text", "https://x.test"), 8);
		expect(out).toContain("\x1b]8;;\x1b\\\x1b[0m...");
		expect(visibleWidth(out)).toBe(8);
	});
	it("pads after an ellipsis", () => {
		const out = truncateToWidth("日本語テキスト", 8, "…", true);
		expect(visibleWidth(out)).toBe(8);
	});
	it("never exceeds the width when marks after an escape join the grapheme before it", () => {
		// A selected SelectDialog row (fuzz round 27 of terminal-sanitizing.test.ts): the space before
		// the SGR and the marks after it (ending in the spacing mark U+0A03) are one two-column cluster.
		const row = "→ \x1b[1m\u0d3c\u1de7\u0a03\u0e98  漢字\x1b[0m…\x1b[0m\x1b[22m";
		expect(visibleWidth(row)).toBe(11);
		for (let width = 1; width <= 12; width++) {
			expect(visibleWidth(truncateToWidth(row, width, "")), `width ${width}`).toBeLessThanOrEqual(width);
			expect(visibleWidth(truncateToWidth(row, width, "…")), `width ${width}`).toBeLessThanOrEqual(width);
			expect(visibleWidth(truncateToWidth(row, width, "…", true)), `padded ${width}`).toBe(width);
		}
		expect(truncateToWidth(row, 11, "")).toBe(row);
	});
});

describe("sliceByColumn", () => {
	it("excludes a straddling wide character in strict mode", () => {
		expect(stripTerminalSequences(sliceByColumn("ab日本", 0, 3, true))).toBe("ab");
		expect(stripTerminalSequences(sliceByColumn("ab日本", 0, 3, false))).toBe("ab日");
	});
	it("carries preceding SGR but not APC", () => {
		const line = `\x1b[31m${CURSOR_MARKER}abc\x1b[0mdef`;
		const out = sliceByColumn(line, 1, 2);
		expect(out).toBe("\x1b[31mbc");
		expect(out).not.toContain("\x1b_");
	});
});

describe("wrapTextWithAnsi", () => {
	it("never exceeds the width and trims trailing spaces", () => {
		const lines = wrapTextWithAnsi("the quick brown fox jumps over the lazy dog   ", 10);
		for (const l of lines) {
			expect(visibleWidth(l)).toBeLessThanOrEqual(10);
			expect(stripTerminalSequences(l)).not.toMatch(/ $/);
		}
		expect(lines.map(stripTerminalSequences)).toEqual(["the quick", "brown fox", "jumps over", "the lazy", "dog"]);
	});
	it("re-opens a colour on the next line", () => {
		const lines = wrapTextWithAnsi("\x1b[31mred words continue here\x1b[39m", 10);
		expect(lines.length).toBeGreaterThan(1);
		expect(lines[1]!.startsWith("\x1b[31m")).toBe(true);
	});
	it("closes underline at the line end", () => {
		const lines = wrapTextWithAnsi("\x1b[4munderlined words wrap\x1b[24m", 10);
		expect(lines[0]!.endsWith("\x1b[24m")).toBe(true);
		expect(lines[1]!.startsWith("\x1b[4m")).toBe(true);
	});
	it("closes and re-opens a hyperlink with its original terminator", () => {
		const open = "\x1b]8;;https://x.test\x07";
		const lines = wrapTextWithAnsi(`${open}click this long link\x1b]8;;\x07`, 10);
		expect(lines[0]!.endsWith("\x1b]8;;\x07")).toBe(true);
		expect(lines[1]!.startsWith(open)).toBe(true);
		const openSt = "\x1b]8;;https://x.test\x1b\\";
		const st = wrapTextWithAnsi(`${openSt}click this long link\x1b]8;;\x1b\\ after`, 10);
		expect(st).toEqual([`${openSt}click this\x1b]8;;\x1b\\`, `${openSt}long link\x1b]8;;\x1b\\`, "after"]);
	});
	it("wraps CJK between characters", () => {
		const lines = wrapTextWithAnsi("日本語のテキストです", 6);
		expect(lines.map(stripTerminalSequences)).toEqual(["日本語", "のテキ", "ストで", "す"]);
	});
	it("breaks a word longer than the width", () => {
		const lines = wrapTextWithAnsi("abcdefghijkl", 5);
		expect(lines).toEqual(["abcde", "fghij", "kl"]);
	});
	it("returns one empty line for empty text and carries state across input lines", () => {
		expect(wrapTextWithAnsi("", 5)).toEqual([""]);
		const lines = wrapTextWithAnsi("\x1b[1mbold\nstill", 20);
		expect(lines[1]).toBe("\x1b[1mstill");
	});
});

describe("other text utilities", () => {
	it("normalises Thai/Lao AM and TABs outside escape sequences", () => {
		expect(normalizeTerminalOutput("\u0e01\u0e33\tx")).toBe("\u0e01\u0e4d\u0e32   x");
		expect(visibleWidth("\u0e01\u0e33")).toBe(visibleWidth(normalizeTerminalOutput("\u0e01\u0e33")));
	});
	it("finds the OSC 8 link under a column", () => {
		const line = `see ${hyperlink("docs", "https://x.test")} now`;
		expect(getOsc8LinkAtColumn(line, 5)).toBe("https://x.test");
		expect(getOsc8LinkAtColumn(line, 1)).toBeUndefined();
		expect(getOsc8LinkAtColumn(line, 9)).toBeUndefined();
	});
	it("extracts the parts around a region, re-opening the style after it", () => {
		const seg = extractSegments("\x1b[31mabcdefgh", 2, 5, 3, true);
		expect(seg.before).toBe("\x1b[31mab");
		expect(seg.after).toBe("\x1b[31mfgh");
		expect(seg.afterWidth).toBe(3);
	});
	it("replaces control character runs with one space", () => {
		expect(replaceControlCharacters("a\x00\x01b\x7fc")).toBe("a b c");
	});
});
