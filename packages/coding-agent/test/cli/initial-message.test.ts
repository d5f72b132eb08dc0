import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildInitialInput, detectImageType, readFileArguments } from "../../src/startup/initial-message.js";

describe("initial message (docs/design/cli.md#piped-stdin, #initial-message)", () => {
	it("joins stdin to the following part with a blank line", () => {
		const input = buildInitialInput({ stdin: "data", fileText: "", images: [], messages: ["Summarize", "next"] });
		expect(input.initialMessage).toBe("data\n\nSummarize");
		expect(input.messages).toEqual(["next"]);
	});

	it("uses stdin alone, or the file text followed directly by the first message", () => {
		expect(buildInitialInput({ stdin: "only", fileText: "", images: [], messages: [] }).initialMessage).toBe("only");
		expect(buildInitialInput({ fileText: "<file/>\n", images: [], messages: ["Explain"] }).initialMessage).toBe(
			"<file/>\nExplain",
		);
		expect(buildInitialInput({ fileText: "", images: [], messages: [] }).initialMessage).toBeUndefined();
	});

	it("attaches images detected by content and references them by name", () => {
		const dir = mkdtempSync(join(tmpdir(), "tau-file-args-"));
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
		writeFileSync(join(dir, "picture.dat"), png);
		writeFileSync(join(dir, "note.txt"), "hello");
		const result = readFileArguments(["picture.dat", "note.txt"], dir);
		expect(result.images).toEqual([{ type: "image", mimeType: "image/png", data: png.toString("base64") }]);
		expect(result.text).toBe(
			`<file name="${join(dir, "picture.dat")}"></file>\n<file name="${join(dir, "note.txt")}">\nhello\n</file>\n`,
		);
		expect(detectImageType(Buffer.from("GIF89a..."))).toBe("image/gif");
		expect(detectImageType(Buffer.from("plain text"))).toBeUndefined();
	});
});
