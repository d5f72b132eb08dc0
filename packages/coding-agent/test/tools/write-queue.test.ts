import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
	createEditTool,
	createWriteTool,
	type EditOperations,
	type WriteOperations,
	withFileMutationQueue,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { tempDir, textOf } from "./helpers.js";

function deferred() {
	let resolve!: () => void;
	const promise = new Promise<void>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}

describe("write", () => {
	it("creates missing parent directories and reports the bytes written", async () => {
		const dir = tempDir();
		const result = await createWriteTool(dir).execute("c", { path: "a/b/c.txt", content: "héllo" });
		expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo");
		expect(textOf(result)).toBe("Successfully wrote to a/b/c.txt");
	});

	it("overwrites existing content exactly, without line-ending or BOM handling", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "f.txt"), "old content that is longer");
		await createWriteTool(dir).execute("c", { path: "f.txt", content: "\ufeffnew\r\nlines\n" });
		expect(readFileSync(join(dir, "f.txt"), "utf8")).toBe("\ufeffnew\r\nlines\n");
	});

	it("does not write for a pre-aborted signal", async () => {
		const dir = tempDir();
		await expect(
			createWriteTool(dir).execute("c", { path: "x.txt", content: "x" }, AbortSignal.abort()),
		).rejects.toThrow("Operation aborted");
		expect(() => readFileSync(join(dir, "x.txt"))).toThrow();
	});
});

describe("file mutation queue", () => {
	it("serializes edit, write and a custom mutation of one file (also via a symlink) in call order", async () => {
		const dir = tempDir();
		const file = join(dir, "shared.txt");
		writeFileSync(file, "v0\n");
		symlinkSync(file, join(dir, "alias.txt"));
		const log: string[] = [];
		const releaseWrite = deferred();
		const writeStarted = deferred();
		const writeOps: WriteOperations = {
			mkdir: async () => {},
			writeFile: async (path, content) => {
				log.push(`write start ${path.endsWith("other.txt") ? "other" : "shared"}`);
				if (!path.endsWith("other.txt")) {
					writeStarted.resolve();
					await releaseWrite.promise;
				}
				await writeFile(path, content);
				log.push(`write end ${path.endsWith("other.txt") ? "other" : "shared"}`);
			},
		};
		const editOps: EditOperations = {
			access: async () => {},
			readFile: async (path) => {
				log.push("edit read");
				return readFile(path);
			},
			writeFile: (path, content) => writeFile(path, content),
		};
		const write = createWriteTool(dir, { operations: writeOps });
		const edit = createEditTool(dir, { operations: editOps });

		const first = write.execute("1", { path: "shared.txt", content: "v1\n" });
		const second = edit.execute("2", { path: "alias.txt", edits: [{ oldText: "v1", newText: "v2" }] });
		const third = withFileMutationQueue(file, async () => {
			log.push("custom");
			return readFileSync(file, "utf8");
		});
		await writeStarted.promise;
		// Another file is not blocked by the pending mutation of shared.txt.
		await write.execute("4", { path: "other.txt", content: "independent" });
		expect(log).toEqual(["write start shared", "write start other", "write end other"]);

		releaseWrite.resolve();
		await Promise.all([first, second]);
		expect(await third).toBe("v2\n");
		expect(log.slice(3)).toEqual(["write end shared", "edit read", "custom"]);
	});

	it("keeps the queue locked until an aborted write's filesystem call settled", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "d"));
		const release = deferred();
		const started = deferred();
		const log: string[] = [];
		const ops: WriteOperations = {
			mkdir: async () => {},
			writeFile: async () => {
				started.resolve();
				await release.promise;
				log.push("write settled");
			},
		};
		const controller = new AbortController();
		const write = createWriteTool(dir, { operations: ops }).execute(
			"1",
			{ path: "d/f.txt", content: "x" },
			controller.signal,
		);
		const next = withFileMutationQueue(join(dir, "d/f.txt"), async () => {
			log.push("next started");
		});
		await started.promise;
		controller.abort();
		// Give a lock released by the abort every chance to start the next mutation (I/O and event-loop turns).
		for (let turn = 0; turn < 5; turn++) {
			await realpath(dir);
			await new Promise((resolve) => setImmediate(resolve));
		}
		expect(log).toEqual([]);
		release.resolve();
		await expect(write).rejects.toThrow("Operation aborted");
		await next;
		expect(log).toEqual(["write settled", "next started"]);
	});

	it("runs a failing mutation's successors and propagates the failure only to its caller", async () => {
		const dir = tempDir();
		const file = join(dir, "f.txt");
		const failing = withFileMutationQueue(file, async () => {
			throw new Error("boom");
		});
		const after = withFileMutationQueue(file, async () => "ran");
		await expect(failing).rejects.toThrow("boom");
		expect(await after).toBe("ran");
	});
});
