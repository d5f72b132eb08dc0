import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEditTool, createEditToolDefinition, type EditOperations, type EditToolDetails } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { computeEditsDiff } from "../../src/core/tools/index.js";
import { numberedLines, tempDir, textOf } from "./helpers.js";

function setup(content: string | Buffer, name = "f.txt") {
	const dir = tempDir();
	const path = join(dir, name);
	writeFileSync(path, content);
	const tool = createEditTool(dir);
	const edit = (edits: { oldText: string; newText: string }[]) => tool.execute("call", { path: name, edits });
	return { dir, path, tool, edit, contents: () => readFileSync(path, "utf8") };
}

describe("edit: matching", () => {
	it("matches every edit against the original content, not against earlier edits", async () => {
		const { edit, contents } = setup("alpha beta\n");
		const result = await edit([
			{ oldText: "alpha", newText: "beta" },
			{ oldText: "beta", newText: "gamma" },
		]);
		expect(contents()).toBe("beta gamma\n");
		expect(textOf(result)).toBe("Successfully replaced 2 blocks in f.txt.");
	});

	it("rejects overlapping edits naming both indices, leaving the file unchanged", async () => {
		const { edit, contents } = setup("one two three\n");
		await expect(
			edit([
				{ oldText: "three", newText: "3" },
				{ oldText: "one two", newText: "1 2" },
				{ oldText: "two three", newText: "2 3" },
			]),
		).rejects.toThrow("edits[1] and edits[2] overlap in f.txt. Merge them into one edit or target disjoint regions.");
		expect(contents()).toBe("one two three\n");
	});

	it("reports missing, duplicate, empty and no-op edits without touching the file", async () => {
		const { edit, contents } = setup("x = 1\nx = 1\ny = 2\n");
		await expect(edit([{ oldText: "z = 3", newText: "" }])).rejects.toThrow(
			"Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.",
		);
		await expect(edit([{ oldText: "x = 1", newText: "x = 9" }])).rejects.toThrow(
			"Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
		);
		await expect(
			edit([
				{ oldText: "y = 2", newText: "y = 3" },
				{ oldText: "x = 1", newText: "x = 9" },
			]),
		).rejects.toThrow("Found 2 occurrences of edits[1] in f.txt.");
		await expect(
			edit([
				{ oldText: "y = 2", newText: "y = 3" },
				{ oldText: "nope", newText: "" },
			]),
		).rejects.toThrow("Could not find edits[1] in f.txt.");
		await expect(edit([{ oldText: "", newText: "a" }])).rejects.toThrow("oldText must not be empty in f.txt.");
		await expect(edit([{ oldText: "y = 2", newText: "y = 2" }])).rejects.toThrow("No changes made to f.txt.");
		await expect(edit([])).rejects.toThrow(
			"Edit tool input is invalid. edits must contain at least one replacement.",
		);
		expect(contents()).toBe("x = 1\nx = 1\ny = 2\n");
	});

	it("falls back to fuzzy matching for curly quotes and trailing spaces, rewriting only the touched lines", async () => {
		const original = "keep \u201cthis\u201d  \nsay \u2018hi\u2019   \nlast \u2014 line\u00a0 \n";
		const { edit, contents, tool } = setup(original);
		const result = await edit([{ oldText: "say 'hi'", newText: "say 'bye'" }]);
		expect(contents()).toBe("keep \u201cthis\u201d  \nsay 'bye'\nlast \u2014 line\u00a0 \n");
		expect((result.details as EditToolDetails).fuzzyMatch).toBe(true);
		const exact = await tool.execute("c", { path: "f.txt", edits: [{ oldText: "say 'bye'", newText: "said" }] });
		expect((exact.details as EditToolDetails).fuzzyMatch).toBeUndefined();
	});
});

describe("edit: bytes on disk", () => {
	it("keeps CRLF on untouched lines and uses it for inserted lines", async () => {
		const { edit, contents } = setup("a\r\nb\r\nc\r\n");
		await edit([{ oldText: "b\n", newText: "B1\nB2\n" }]);
		expect(contents()).toBe("a\r\nB1\r\nB2\r\nc\r\n");
	});

	it("keeps an LF file LF and mixed endings per line", async () => {
		const lf = setup("a\nb\nc\n");
		await lf.edit([{ oldText: "b", newText: "x\ny" }]);
		expect(lf.contents()).toBe("a\nx\ny\nc\n");

		const mixed = setup("one\r\ntwo\nthree\r\nfour\n");
		await mixed.edit([
			{ oldText: "two", newText: "TWO" },
			{ oldText: "four", newText: "FOUR" },
		]);
		expect(mixed.contents()).toBe("one\r\nTWO\nthree\r\nFOUR\n");
	});

	it("preserves a UTF-8 BOM that oldText does not mention", async () => {
		const { edit, path } = setup("\ufefffirst\nsecond\n");
		await edit([{ oldText: "first", newText: "1st" }]);
		expect(readFileSync(path).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
		expect(readFileSync(path, "utf8")).toBe("\ufeff1st\nsecond\n");
	});

	it("reports access failures with the error code", async () => {
		const dir = tempDir();
		const tool = createEditTool(dir);
		await expect(tool.execute("c", { path: "missing.txt", edits: [{ oldText: "a", newText: "b" }] })).rejects.toThrow(
			"Could not edit file: missing.txt. Error code: ENOENT.",
		);
		const readOnly: EditOperations = {
			readFile: async () => Buffer.from("a"),
			writeFile: async () => {
				throw new Error("must not write");
			},
			access: async () => {
				throw Object.assign(new Error("denied"), { code: "EACCES" });
			},
		};
		const guarded = createEditTool(dir, { operations: readOnly });
		await expect(guarded.execute("c", { path: "ro.txt", edits: [{ oldText: "a", newText: "b" }] })).rejects.toThrow(
			"Could not edit file: ro.txt. Error code: EACCES.",
		);
	});

	it("does nothing for a pre-aborted signal", async () => {
		const { tool, contents } = setup("a\n");
		await expect(
			tool.execute("c", { path: "f.txt", edits: [{ oldText: "a", newText: "b" }] }, AbortSignal.abort()),
		).rejects.toThrow("Operation aborted");
		expect(contents()).toBe("a\n");
	});
});

describe("edit: arguments", () => {
	const prepare = createEditToolDefinition("/").prepareArguments as (args: unknown) => unknown;

	it("accepts legacy oldText/newText, edits as a JSON string, and a single edit object", () => {
		expect(prepare({ path: "f", oldText: "a", newText: "b" })).toEqual({
			path: "f",
			edits: [{ oldText: "a", newText: "b" }],
		});
		expect(prepare({ path: "f", edits: '[{"oldText":"a","newText":"b"}]' })).toEqual({
			path: "f",
			edits: [{ oldText: "a", newText: "b" }],
		});
		expect(prepare({ path: "f", edits: '{"oldText":"a","newText":"b"}' })).toEqual({
			path: "f",
			edits: [{ oldText: "a", newText: "b" }],
		});
		expect(prepare({ path: "f", edits: { oldText: "a", newText: "b" } })).toEqual({
			path: "f",
			edits: [{ oldText: "a", newText: "b" }],
		});
		expect(prepare({ path: "f", edits: [{ oldText: "x", newText: "y" }], oldText: "a", newText: "b" })).toEqual({
			path: "f",
			edits: [
				{ oldText: "x", newText: "y" },
				{ oldText: "a", newText: "b" },
			],
		});
		expect(prepare({ path: "f", edits: "not json" })).toEqual({ path: "f", edits: "not json" });
	});
});

describe("edit: diff and patch", () => {
	it("renders a numbered display diff with context and the first changed line", async () => {
		const { edit } = setup(`${numberedLines(20)}\n`);
		const result = await edit([
			{ oldText: "line 5\n", newText: "LINE 5\n" },
			{ oldText: "line 18\n", newText: "" },
		]);
		const details = result.details as EditToolDetails;
		expect(details.firstChangedLine).toBe(5);
		expect(details.diff).toBe(
			[
				"  1 line 1",
				"  2 line 2",
				"  3 line 3",
				"  4 line 4",
				"- 5 line 5",
				"+ 5 LINE 5",
				"  6 line 6",
				"  7 line 7",
				"  8 line 8",
				"  9 line 9",
				"    ...",
				" 14 line 14",
				" 15 line 15",
				" 16 line 16",
				" 17 line 17",
				"-18 line 18",
				" 19 line 19",
				" 20 line 20",
			].join("\n"),
		);
	});

	it("marks the unchanged lines left out before the first and after the last hunk", async () => {
		const { edit } = setup(`${numberedLines(20)}\n`);
		const result = await edit([{ oldText: "line 10\n", newText: "LINE 10\n" }]);
		expect((result.details as EditToolDetails).diff).toBe(
			[
				"    ...",
				"  6 line 6",
				"  7 line 7",
				"  8 line 8",
				"  9 line 9",
				"-10 line 10",
				"+10 LINE 10",
				" 11 line 11",
				" 12 line 12",
				" 13 line 13",
				" 14 line 14",
				"    ...",
			].join("\n"),
		);
	});

	it("produces a unified patch that applies to the original with patch -p0", async () => {
		const original = `${numberedLines(40)}`;
		const { dir, edit, contents } = setup(original);
		const result = await edit([
			{ oldText: "line 3\n", newText: "line three\nextra\n" },
			{ oldText: "line 30\nline 31", newText: "merged 30-31" },
			{ oldText: "line 40", newText: "line forty" },
		]);
		const edited = contents();
		const details = result.details as EditToolDetails;
		expect(details.patch.startsWith("--- f.txt\n+++ f.txt\n@@ -1,7 +1,8 @@\n")).toBe(true);
		writeFileSync(join(dir, "f.txt"), original);
		writeFileSync(join(dir, "change.patch"), details.patch);
		execFileSync("patch", ["-p0", "--quiet", "-i", "change.patch"], { cwd: dir });
		expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe(edited);
	});

	it("previews the diff without writing", async () => {
		const { dir, contents } = setup("a\nb\n");
		const preview = await computeEditsDiff("f.txt", [{ oldText: "b", newText: "c" }], dir);
		expect(preview).toEqual({ diff: " 1 a\n-2 b\n+2 c", firstChangedLine: 2 });
		expect(contents()).toBe("a\nb\n");
		expect(await computeEditsDiff("f.txt", [{ oldText: "zz", newText: "c" }], dir)).toHaveProperty("error");
	});
});
