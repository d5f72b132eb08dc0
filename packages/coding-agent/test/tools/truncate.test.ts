import { DEFAULT_MAX_BYTES, formatSize, truncateHead, truncateLine, truncateTail } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { numberedLines } from "./helpers.js";

describe("truncation utilities", () => {
	it("formats sizes like the notices do", () => {
		expect(formatSize(512)).toBe("512B");
		expect(formatSize(51200)).toBe("50.0KB");
		expect(formatSize(1.5 * 1024 * 1024)).toBe("1.5MB");
	});

	it("counts lines without the trailing newline and returns small content unchanged", () => {
		const result = truncateHead("a\nb\n");
		expect(result).toMatchObject({
			content: "a\nb\n",
			truncated: false,
			truncatedBy: null,
			totalLines: 2,
			totalBytes: 4,
		});
		expect(truncateHead("").totalLines).toBe(0);
	});

	it("head truncation keeps whole lines from the start, by lines or by bytes", () => {
		const byLines = truncateHead(numberedLines(2500));
		expect(byLines).toMatchObject({ truncated: true, truncatedBy: "lines", outputLines: 2000, totalLines: 2500 });
		expect(byLines.content.split("\n").at(-1)).toBe("line 2000");

		const long = Array.from({ length: 100 }, () => "x".repeat(1000)).join("\n");
		const byBytes = truncateHead(long);
		expect(byBytes.truncatedBy).toBe("bytes");
		expect(byBytes.outputLines).toBe(51);
		expect(byBytes.outputBytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
	});

	it("head truncation of an oversized first line returns nothing and says so", () => {
		const result = truncateHead("y".repeat(60_000));
		expect(result).toMatchObject({ content: "", firstLineExceedsLimit: true, truncatedBy: "bytes" });
	});

	it("tail truncation keeps the end, and only the end of an oversized last line at a character boundary", () => {
		const tail = truncateTail(numberedLines(3000));
		expect(tail.content.split("\n")[0]).toBe("line 1001");
		expect(tail.outputLines).toBe(2000);

		const partial = truncateTail(`head\n${"é".repeat(40_000)}`);
		expect(partial.lastLinePartial).toBe(true);
		expect(partial.content).toMatch(/^é+$/);
		expect(Buffer.byteLength(partial.content)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
	});

	it("truncateLine never splits a surrogate pair", () => {
		expect(truncateLine("abc", 5)).toEqual({ text: "abc", wasTruncated: false });
		const result = truncateLine(`${"a".repeat(4)}😀tail`, 5);
		expect(result).toEqual({ text: "aaaa... [truncated]", wasTruncated: true });
		expect(truncateLine("x".repeat(600)).text).toBe(`${"x".repeat(500)}... [truncated]`);
	});
});
