import { closeSync, createReadStream, ftruncateSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { createReadTool, type ReadOperations, type ReadToolDetails } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { resolveToolPath } from "../../src/core/tools/index.js";
import { numberedLines, tempDir, textOf, toolContext } from "./helpers.js";
import { bmp, gif, jpeg, png, pngSize, rgbPng, webp } from "./images.js";

async function read(
	cwd: string,
	params: { path: string; offset?: number; limit?: number },
	operations?: ReadOperations,
) {
	const tool = createReadTool(cwd, operations ? { operations } : {});
	return tool.execute("call", params);
}

/** Local operations without streaming: forces the whole-file path. */
const wholeFileOps: ReadOperations = {
	readFile: (path) => import("node:fs/promises").then((fs) => fs.readFile(path)),
	access: async () => {},
};

/** Streaming in tiny chunks so lines and characters straddle chunk boundaries. */
const tinyChunkOps: ReadOperations = {
	...wholeFileOps,
	readFile: () => Promise.reject(new Error("whole-file read not expected")),
	createReadStream: (path) => createReadStream(path, { highWaterMark: 997 }),
};

describe("read: text", () => {
	it("shows the first 2000 lines of a 2500-line file with a continuation notice", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "big.txt"), numberedLines(2500));
		const result = await read(dir, { path: "big.txt" });
		const text = textOf(result);
		expect(text.startsWith("line 1\n")).toBe(true);
		expect(text).toContain("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
		expect(text).not.toContain("line 2001\n");
		expect((result.details as ReadToolDetails).truncation?.truncatedBy).toBe("lines");
		expect(result.structuredContent).toBe(text);
	});

	it("announces the byte limit when long lines exceed 50KB first", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "wide.txt"),
			Array.from({ length: 200 }, (_, i) => `${i + 1}:${"w".repeat(1000)}`).join("\n"),
		);
		const text = textOf(await read(dir, { path: "wide.txt" }));
		expect(text).toMatch(/\n\n\[Showing lines 1-51 of 200 \(50\.0KB limit\)\. Use offset=52 to continue\.\]$/);
	});

	it("continues from offset, rejects offsets beyond the end, and treats 0 and negatives as 1", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "big.txt"), numberedLines(2500));
		const next = textOf(await read(dir, { path: "big.txt", offset: 2001 }));
		expect(next.split("\n")[0]).toBe("line 2001");
		expect(next.endsWith("line 2500")).toBe(true);
		await expect(read(dir, { path: "big.txt", offset: 3000 })).rejects.toThrow(
			"Offset 3000 is beyond end of file (2500 lines total)",
		);
		for (const offset of [0, -5]) {
			const text = textOf(await read(dir, { path: "big.txt", offset, limit: 1 }));
			expect(text.split("\n")[0]).toBe("line 1");
		}
	});

	it("tells how many lines remain when the user limit ends before the file does", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "hundred.txt"), numberedLines(100));
		const result = await read(dir, { path: "hundred.txt", limit: 10 });
		expect(textOf(result)).toBe(`${numberedLines(10)}\n\n[90 more lines in file. Use offset=11 to continue.]`);
		expect(result.details).toBeUndefined();
	});

	it("points at sed for a single line over 50KB", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "one.txt"), "z".repeat(60 * 1024));
		const result = await read(dir, { path: "one.txt" });
		expect(textOf(result)).toBe(
			"[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' one.txt | head -c 51200]",
		);
		expect((result.details as ReadToolDetails).truncation?.firstLineExceedsLimit).toBe(true);
	});

	it("keeps CR characters, the BOM and invalid bytes (as U+FFFD) without decoration", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "mixed.txt"),
			Buffer.concat([Buffer.from("\ufeffa\r\nb\t"), Buffer.from([0xff, 0x00, 0x0a]), Buffer.from("c")]),
		);
		const text = textOf(await read(dir, { path: "mixed.txt" }));
		expect(text).toBe("\ufeffa\r\nb\t\ufffd\u0000\nc");
	});

	it("streaming and whole-file paths give identical results", async () => {
		const dir = tempDir();
		const samples: Record<string, Buffer | string> = {
			lines: numberedLines(2500),
			trailing: `${numberedLines(2000)}\n`,
			wide: Array.from({ length: 120 }, (_, i) => `${i}é${"ü".repeat(600)}`).join("\n"),
			huge: `short\n${"q".repeat(70_000)}\nend`,
			crlf: "one\r\ntwo\r\n\r\nthree",
			bom: "\ufeffbom first\nsecond\n",
			invalid: Buffer.concat([
				Buffer.from("ok\n"),
				Buffer.from([0xe2, 0x82]),
				Buffer.from("x\n"),
				Buffer.from([0xf0, 0x9f]),
			]),
			emoji: `${"😀".repeat(30_000)}\nafter`,
			// Several 1 MiB chunks of the local reader, with lines straddling every chunk boundary.
			multiChunk: `${numberedLines(300_000)}\n${"é".repeat(700_000)}\ntail`,
			empty: "",
		};
		const cases = [
			{},
			{ offset: 2 },
			{ limit: 3 },
			{ offset: 2, limit: 1 },
			{ offset: 1999, limit: 5 },
			{ offset: 2 },
			{ offset: 299_990, limit: 20 },
		];
		for (const [name, content] of Object.entries(samples)) {
			writeFileSync(join(dir, name), content);
			for (const params of cases) {
				const settle = (promise: Promise<unknown>) =>
					promise.then(
						(value) => ({ value }),
						(error: Error) => ({ error: error.message }),
					);
				const whole = await settle(read(dir, { path: name, ...params }, wholeFileOps));
				const streamed = await settle(read(dir, { path: name, ...params }, tinyChunkOps));
				const defaultOps = await settle(read(dir, { path: name, ...params }));
				expect(streamed, `${name} ${JSON.stringify(params)}`).toEqual(whole);
				expect(defaultOps, `${name} ${JSON.stringify(params)}`).toEqual(whole);
			}
		}
	});

	it("reads a slice of a 2 GB file without loading it whole", async () => {
		const dir = tempDir();
		const path = join(dir, "huge.log");
		const fd = openSync(path, "w");
		writeSync(fd, `${numberedLines(5)}\n`);
		// Sparse: the rest of the 2 GB is a hole of NUL bytes that costs no disk space.
		ftruncateSync(fd, 2 * 1024 * 1024 * 1024);
		closeSync(fd);
		const ops: ReadOperations = {
			access: async () => {},
			readFile: () => Promise.reject(new Error("must not load the whole file")),
			createReadStream: (file, options) =>
				createReadStream(file, {
					highWaterMark: 1024 * 1024,
					...(options.signal ? { signal: options.signal } : {}),
				}),
		};
		const result = await read(dir, { path: "huge.log", offset: 2, limit: 3 }, ops);
		expect(textOf(result)).toBe("line 2\nline 3\nline 4\n\n[2 more lines in file. Use offset=5 to continue.]");
	}, 120_000);

	it("rejects with Operation aborted when aborted mid-stream, and before starting", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "f.txt"), numberedLines(10));
		const controller = new AbortController();
		const ops: ReadOperations = {
			...wholeFileOps,
			async *createReadStream() {
				yield Buffer.from("first\n");
				controller.abort();
				yield Buffer.from("second\n");
			},
		};
		await expect(
			createReadTool(dir, { operations: ops }).execute("c", { path: "f.txt" }, controller.signal),
		).rejects.toThrow("Operation aborted");
		await expect(createReadTool(dir).execute("c", { path: "f.txt" }, AbortSignal.abort())).rejects.toThrow(
			"Operation aborted",
		);
	});

	it("fails for a missing file with the access error", async () => {
		const dir = tempDir();
		await expect(read(dir, { path: "missing.txt" })).rejects.toThrow(/ENOENT/);
	});
});

describe("read: images", () => {
	it("detects PNG, JPEG, GIF and WebP by content regardless of extension", async () => {
		const dir = tempDir();
		const images = {
			"a.dat": [png(), "image/png"],
			"b.txt": [jpeg(), "image/jpeg"],
			c: [gif(), "image/gif"],
			"d.bin": [webp(), "image/webp"],
		} as const;
		for (const [name, [bytes, mimeType]] of Object.entries(images)) {
			writeFileSync(join(dir, name), bytes);
			const result = await read(dir, { path: name });
			expect(result.content[0]).toEqual({ type: "text", text: `Read image file [${mimeType}]` });
			expect(result.content[1]).toEqual({ type: "image", data: bytes.toString("base64"), mimeType });
			expect(result.structuredContent).toEqual({
				type: "image",
				data: bytes.toString("base64"),
				mimeType,
				note: `Read image file [${mimeType}]`,
			});
		}
	});

	it("reads an animated PNG and text named .png as text", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "anim.png"), png(true));
		writeFileSync(join(dir, "fake.png"), "just text");
		expect((await read(dir, { path: "anim.png" })).content.every((block) => block.type === "text")).toBe(true);
		expect(textOf(await read(dir, { path: "fake.png" }))).toBe("just text");
	});

	it("converts BMP to PNG with a hint, keeping the pixels", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "pic.bmp"), bmp());
		const result = await read(dir, { path: "pic.bmp" });
		expect(textOf(result)).toContain("Read image file [image/bmp]\nConverted from image/bmp to image/png (2x2)");
		const image = result.content[1];
		if (image?.type !== "image") throw new Error("expected an image block");
		expect(image.mimeType).toBe("image/png");
		const bytes = Buffer.from(image.data, "base64");
		const idatLength = bytes.readUInt32BE(33);
		const pixels = inflateSync(bytes.subarray(41, 41 + idatLength));
		// Row filters are 0; top row red then blue, bottom row green then white.
		expect([...pixels]).toEqual([0, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 0, 255, 255, 255, 255, 255]);
	});

	it("resizes a 4000x3000 image to fit 2000x2000 and explains the coordinate scale", async () => {
		const dir = tempDir();
		// Left half red, right half blue: the averaged result must keep the split.
		writeFileSync(
			join(dir, "big.png"),
			rgbPng(4000, 3000, (x) => (x < 2000 ? [255, 0, 0] : [0, 0, 255])),
		);
		const result = await read(dir, { path: "big.png" });
		expect(textOf(result)).toBe(
			"Read image file [image/png]\n[Image: original 4000x3000, displayed at 2000x1500. Multiply coordinates by 2.00 to map to original image.]",
		);
		const image = result.content[1];
		if (image?.type !== "image") throw new Error("expected an image block");
		const bytes = Buffer.from(image.data, "base64");
		expect(pngSize(bytes)).toEqual({ width: 2000, height: 1500 });
		const pixels = inflateSync(bytes.subarray(41, 41 + bytes.readUInt32BE(33)));
		const rowStart = 700 * (2000 * 4 + 1) + 1;
		expect([...pixels.subarray(rowStart, rowStart + 4)]).toEqual([255, 0, 0, 255]);
		expect([...pixels.subarray(rowStart + 1999 * 4, rowStart + 2000 * 4)]).toEqual([0, 0, 255, 255]);
	});

	it("uses the model's resize limits, and sends the original when auto-resize is off", async () => {
		const dir = tempDir();
		const original = rgbPng(400, 300, (x, y) => [x % 256, y % 256, 128]);
		writeFileSync(join(dir, "p.png"), original);
		const model = {
			provider: "faux",
			id: "small",
			input: ["text", "image"],
			inputLimits: { images: { resize: { maxWidth: 100, maxHeight: 100 } } },
		};
		const resized = await createReadTool("/").execute(
			"c",
			{ path: "p.png" },
			undefined,
			undefined,
			toolContext(dir, { model }),
		);
		const image = resized.content[1];
		expect(image?.type === "image" && pngSize(Buffer.from(image.data, "base64"))).toEqual({ width: 100, height: 75 });
		const untouched = await createReadTool(dir, { autoResizeImages: false }).execute("c", { path: "p.png" });
		expect(untouched.content[1]).toEqual({ type: "image", data: original.toString("base64"), mimeType: "image/png" });
	});

	it("refuses an image it cannot shrink below the byte limit, explaining why", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "huge.jpg"), Buffer.concat([jpeg(), Buffer.alloc(5 * 1024 * 1024)]));
		const result = await read(dir, { path: "huge.jpg" });
		expect(result.content).toHaveLength(1);
		expect(textOf(result)).toMatch(/^Read image file \[image\/jpeg\]\nImage could not be processed: .*too large/);
	});

	it("flags models without image input", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "p.png"), png());
		const ctx = toolContext(dir, { model: { provider: "faux", id: "text-only", input: ["text"] } });
		const result = await createReadTool("/elsewhere").execute("c", { path: "p.png" }, undefined, undefined, ctx);
		expect((result.details as ReadToolDetails).imageUnsupportedByModel).toBe("text-only");
		expect(result.content[1]?.type).toBe("image");
	});
});

describe("read: paths", () => {
	it("resolves @paths, file:// URLs, unicode spaces and ~ against the right directory", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sub"));
		writeFileSync(join(dir, "sub", "my file.txt"), "hello");
		expect(textOf(await read(dir, { path: "@sub/my file.txt" }))).toBe("hello");
		expect(textOf(await read("/", { path: `file://${join(dir, "sub", "my%20file.txt")}` }))).toBe("hello");
		expect(textOf(await read(dir, { path: "sub/my\u00a0file.txt" }))).toBe("hello");
		expect(resolveToolPath("~/notes.md", dir)).toBe(join(homedir(), "notes.md"));
		expect(resolveToolPath("~", dir)).toBe(homedir());
		expect(resolveToolPath("../outside.txt", join(dir, "sub"))).toBe(join(dir, "outside.txt"));
	});

	it("resolves relative paths against ctx.cwd, falling back to the construction cwd", async () => {
		const construction = tempDir();
		const session = tempDir();
		writeFileSync(join(construction, "f.txt"), "construction");
		writeFileSync(join(session, "f.txt"), "session");
		const tool = createReadTool(construction);
		expect(textOf(await tool.execute("c", { path: "f.txt" }))).toBe("construction");
		expect(textOf(await tool.execute("c", { path: "f.txt" }, undefined, undefined, toolContext(session)))).toBe(
			"session",
		);
	});

	it("finds macOS screenshot, NFD and curly-apostrophe file names", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "Screenshot 2024-01-01 at 10.00.00\u202fPM.png"), "shot");
		writeFileSync(join(dir, "cafe\u0301.txt"), "nfd");
		writeFileSync(join(dir, "it\u2019s.txt"), "curly");
		expect(textOf(await read(dir, { path: "Screenshot 2024-01-01 at 10.00.00 PM.png" }))).toBe("shot");
		expect(textOf(await read(dir, { path: "caf\u00e9.txt" }))).toBe("nfd");
		expect(textOf(await read(dir, { path: "it's.txt" }))).toBe("curly");
	});

	it("reaches files outside the cwd: the cwd is not a sandbox", async () => {
		const outside = tempDir();
		const cwd = tempDir();
		writeFileSync(join(outside, "secret.txt"), "outside");
		expect(textOf(await read(cwd, { path: join(outside, "secret.txt") }))).toBe("outside");
	});
});
