import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { nodeSessionFileSystem, type SessionFileSystem } from "../../src/core/session/index.js";
import { assistant, tempDir, user } from "./helpers.js";

function fileEntries(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

/** A file system whose next write fails with `code`, counting fsync calls. */
function faultyFs(): SessionFileSystem & { failNextWrite(code: string): void; fsyncs: number } {
	let failure: string | undefined;
	const fs = {
		...nodeSessionFileSystem,
		fsyncs: 0,
		failNextWrite(code: string) {
			failure = code;
		},
		writeSync(fd: number, data: string) {
			if (failure) {
				const code = failure;
				failure = undefined;
				throw Object.assign(new Error(`simulated ${code}`), { code });
			}
			return nodeSessionFileSystem.writeSync(fd, data);
		},
		fsyncSync(fd: number) {
			fs.fsyncs++;
			nodeSessionFileSystem.fsyncSync(fd);
		},
	};
	return fs;
}

describe("session persistence", () => {
	it("creates no file until the first user message, then writes every entry in order", () => {
		const manager = SessionManager.create("/w", tempDir());
		const file = manager.getSessionFile()!;
		manager.appendModelChange("faux", "faux-1");
		manager.appendThinkingLevelChange("high");
		const system = manager.appendMessage({ role: "system", content: "prompt", timestamp: 1 });
		manager.appendLabelChange(system, "boot");
		manager.appendSessionInfo("named");
		expect(existsSync(file)).toBe(false);
		manager.appendMessage(user("go"));
		expect(fileEntries(file).map((e) => e.type)).toEqual([
			"session",
			"model_change",
			"thinking_level_change",
			"message",
			"label",
			"session_info",
			"message",
		]);
		manager.dispose();
	});

	it("exclusive create: an existing file at the path makes the append throw and rolls memory back", () => {
		const manager = SessionManager.create("/w", tempDir());
		const file = manager.getSessionFile()!;
		const model = manager.appendModelChange("faux", "faux-1");
		writeFileSync(file, "someone else's file\n");
		expect(() => manager.appendMessage(user("go"))).toThrow(`Session file already exists: ${file}`);
		expect(manager.getLeafId()).toBe(model);
		expect(manager.getEntryCount()).toBe(1);
		expect(manager.getEntries().map((e) => e.id)).toEqual([model]);
		expect(readFileSync(file, "utf8")).toBe("someone else's file\n");
		manager.dispose();
	});

	it.each([
		["EACCES", "Permission denied"],
		["ENOSPC", "Disk full"],
	])(
		"a failed write (%s) rolls back, says why naming the file; the next append hangs under the old leaf",
		(code, reason) => {
			const fs = faultyFs();
			const manager = SessionManager.create("/w", tempDir(), {}, { fileSystem: fs });
			const first = manager.appendMessage(user("one"));
			fs.failNextWrite(code);
			const file = manager.getSessionFile()!;
			expect(() => manager.appendMessage(assistant("lost"))).toThrow(
				`${reason}: could not write ${file}; the file was left unchanged`,
			);
			expect(manager.getLeafId()).toBe(first);
			expect(manager.getEntryCount()).toBe(1);
			const next = manager.appendMessage(assistant("kept"));
			expect(manager.getEntry(next)!.parentId).toBe(first);
			const entries = fileEntries(manager.getSessionFile()!);
			const ids = new Set(entries.map((e) => e.id));
			for (const entry of entries.slice(1))
				expect(entry.parentId === null || ids.has(entry.parentId as string)).toBe(true);
			expect(entries).toHaveLength(3);
			manager.dispose();
		},
	);

	it("a failed first flush leaves no file and no in-memory entry", () => {
		const fs = faultyFs();
		const manager = SessionManager.create("/w", tempDir(), {}, { fileSystem: fs });
		fs.failNextWrite("ENOSPC");
		expect(() => manager.appendMessage(user("one"))).toThrow(
			`Disk full: could not write ${manager.getSessionFile()}; it was not created`,
		);
		expect(existsSync(manager.getSessionFile()!)).toBe(false);
		expect(manager.getEntryCount()).toBe(0);
		manager.appendMessage(user("again"));
		expect(fileEntries(manager.getSessionFile()!)).toHaveLength(2);
		manager.dispose();
	});

	it("fsync policy: off never syncs, important syncs the first flush, assistants and compactions, always syncs every line", () => {
		const run = (fsync: "off" | "important" | "always") => {
			const fs = faultyFs();
			const manager = SessionManager.create("/w", tempDir(), {}, { fileSystem: fs, fsync });
			manager.appendMessage(user("one"));
			manager.appendMessage(assistant("two"));
			manager.appendCustomEntry("state");
			manager.appendCompaction("sum", null, 10);
			manager.dispose();
			return fs.fsyncs;
		};
		expect(run("off")).toBe(0);
		expect(run("important")).toBe(3);
		expect(run("always")).toBe(4);
	});

	it("a failed fsync counts as a failed append", () => {
		const fs = faultyFs();
		const manager = SessionManager.create(
			"/w",
			tempDir(),
			{},
			{
				fsync: "always",
				fileSystem: {
					...fs,
					fsyncSync: () => {
						throw Object.assign(new Error("EIO on fsync"), { code: "EIO" });
					},
				},
			},
		);
		expect(() => manager.appendMessage(user("one"))).toThrow("Input/output error: could not write");
		expect(manager.getEntryCount()).toBe(0);
		manager.dispose();
	});

	it("detects entries appended by another program and indexes them before the next append", () => {
		const manager = SessionManager.create("/w", tempDir());
		const first = manager.appendMessage(user("one"));
		const file = manager.getSessionFile()!;
		const foreign = {
			type: "message",
			id: "f0000001",
			parentId: first,
			timestamp: new Date().toISOString(),
			message: user("from pi"),
		};
		appendFileSync(file, `${JSON.stringify(foreign)}\n`);
		const mine = manager.appendMessage(assistant("mine"));
		expect(manager.getEntry("f0000001")).toEqual(foreign);
		expect(manager.getEntry(mine)!.parentId).toBe(first);
		expect(fileEntries(file).map((e) => e.id)).toEqual([manager.getSessionId(), first, "f0000001", mine]);
		expect(manager.getDiagnostics().some((d) => /appended to by another process/.test(d.message))).toBe(true);
		manager.dispose();
	});

	it("in-memory sessions never touch the disk and can be rebuilt from entries", () => {
		const manager = SessionManager.inMemory("/w", { id: "mem-1" });
		manager.appendMessage(user("one"));
		expect(manager.getSessionFile()).toBeUndefined();
		expect(manager.getSessionDir()).toBe("");
		expect(manager.isPersisted()).toBe(false);
		const copy = SessionManager.inMemory("/w", { id: "mem-2" }, manager.getEntries());
		expect(copy.getSessionId()).toBe("mem-2");
		expect(copy.buildSessionContext()).toEqual(manager.buildSessionContext());
	});
});
