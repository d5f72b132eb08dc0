import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { deleteSessionFile, type LabelEntry, loadEntriesFromFile } from "../../src/core/session/index.js";
import { assistant, fixture, tempDir, user } from "./helpers.js";

describe("labels", () => {
	it("an empty label clears the bookmark and is written as an empty string, as Pi writes it", () => {
		const manager = SessionManager.inMemory("/w");
		const a = manager.appendMessage(user("a"));
		manager.appendLabelChange(a, "mark");
		manager.appendLabelChange(a, "");
		manager.appendLabelChange(a);
		expect(manager.getLabel(a)).toBeUndefined();
		const written = manager.getEntries().filter((entry): entry is LabelEntry => entry.type === "label");
		expect(written.map((entry) => JSON.stringify({ label: entry.label }))).toEqual([
			'{"label":"mark"}',
			'{"label":""}',
			"{}",
		]);
	});
});

describe("createBranchedSession", () => {
	it("copies root..leaf, drops and re-creates labels at the end, re-chains and re-points compactions", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const a = manager.appendMessage(user("a"));
		const labelA = manager.appendLabelChange(a, "start");
		const b = manager.appendMessage(assistant("b"));
		const compaction = manager.appendCompaction("sum", labelA, 10);
		const c = manager.appendMessage(user("c"));
		manager.branch(a);
		const sibling = manager.appendMessage(assistant("sibling"));
		manager.appendLabelChange(b, "bee");
		const oldFile = manager.getSessionFile()!;
		const labelTime = (manager.getEntries().find((e) => e.id === labelA) as LabelEntry).timestamp;

		const newFile = manager.createBranchedSession(c)!;
		expect(newFile).not.toBe(oldFile);
		expect(manager.getSessionFile()).toBe(newFile);
		expect(manager.getHeader()!.parentSession).toBe(oldFile);
		const entries = manager.getEntries();
		expect(entries.slice(0, 4).map((e) => e.id)).toEqual([a, b, compaction, c]);
		expect(entries.slice(0, 4).map((e) => e.parentId)).toEqual([null, a, b, compaction]);
		expect(entries.find((e) => e.id === compaction)).toMatchObject({ firstKeptEntryId: b });
		const labels = entries.slice(4) as LabelEntry[];
		expect(labels.map((l) => [l.targetId, l.label])).toEqual([
			[a, "start"],
			[b, "bee"],
		]);
		expect(labels[0]!.timestamp).toBe(labelTime);
		expect(labels[0]!.parentId).toBe(c);
		expect(manager.getLeafId()).toBe(labels[1]!.id);
		expect(manager.getEntry(sibling)).toBeUndefined();
		expect(loadEntriesFromFile(newFile).slice(1)).toEqual(entries);
		expect(loadEntriesFromFile(oldFile).some((e) => (e as { id?: string }).id === sibling)).toBe(true);
		manager.dispose();
	});

	it("writes the new file only when the extracted path holds a conversation", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const model = manager.appendModelChange("p", "m");
		manager.appendMessage(user("a"));
		const path = manager.createBranchedSession(model)!;
		expect(existsSync(path)).toBe(false);
		manager.appendMessage(user("now"));
		expect(existsSync(path)).toBe(true);
		expect(() => manager.createBranchedSession("missing")).toThrow("Entry missing not found");
		manager.dispose();
	});

	it("works in memory and returns undefined", () => {
		const manager = SessionManager.inMemory("/w");
		const a = manager.appendMessage(user("a"));
		manager.appendMessage(assistant("b"));
		expect(manager.createBranchedSession(a)).toBeUndefined();
		expect(manager.getEntries().map((e) => e.id)).toEqual([a]);
		expect(manager.getHeader()!.parentSession).toBeUndefined();
	});
});

describe("forkFrom", () => {
	it("copies every branch into a new session for another cwd", () => {
		const dir = tempDir();
		const source = join(dir, "src.jsonl");
		copyFileSync(fixture("pi-v3-full.jsonl"), source);
		const before = readFileSync(source);
		const forked = SessionManager.forkFrom(source, "/other/project", join(dir, "out"), { id: "my-fork" });
		const header = forked.getHeader()!;
		expect(header).toMatchObject({ version: 3, id: "my-fork", cwd: "/other/project", parentSession: source });
		const sourceEntries = loadEntriesFromFile(source).slice(1);
		expect(forked.getEntries()).toEqual(sourceEntries);
		expect(forked.getLeafId()).toBe("a0000019");
		expect(readFileSync(source)).toEqual(before);
		forked.dispose();
	});

	it("rejects invalid ids and empty or headerless sources", () => {
		const dir = tempDir();
		const empty = join(dir, "empty.jsonl");
		writeFileSync(empty, "");
		const headerless = join(dir, "headerless.jsonl");
		writeFileSync(headerless, '{"type":"message","id":"x","parentId":null}\n');
		expect(() => SessionManager.forkFrom(fixture("pi-v3-full.jsonl"), "/o", dir, { id: "bad id" })).toThrow(
			/Session id must be/,
		);
		expect(() => SessionManager.forkFrom(empty, "/o", dir)).toThrow(
			`Cannot fork: source session file is empty or invalid: ${empty}`,
		);
		expect(() => SessionManager.forkFrom(headerless, "/o", dir)).toThrow(
			`Cannot fork: source session has no header: ${headerless}`,
		);
	});

	it("migrates a v1 source before writing it under a v3 header", () => {
		const dir = tempDir();
		const forked = SessionManager.forkFrom(fixture("v1-linear.jsonl"), "/o", dir);
		const entries = forked.getEntries();
		expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
		expect(entries.find((e) => e.type === "compaction")).toMatchObject({ firstKeptEntryId: entries[2]!.id });
		expect(forked.buildSessionContext().messages.map((m) => m.role)).toEqual([
			"compactionSummary",
			"user",
			"custom",
			"user",
		]);
		forked.dispose();
	});
});

describe("importing a session file", () => {
	it("copies into the session dir and names collisions name-1, name-2", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", join(dir, "sessions"));
		const first = manager.importSessionFile(fixture("pi-v3-full.jsonl"));
		const second = manager.importSessionFile(fixture("pi-v3-full.jsonl"));
		const third = manager.importSessionFile(fixture("pi-v3-full.jsonl"));
		expect([first, second, third].map((p) => p.split("/").pop())).toEqual([
			"pi-v3-full.jsonl",
			"pi-v3-full-1.jsonl",
			"pi-v3-full-2.jsonl",
		]);
		expect(manager.importSessionFile(first)).toBe(first);
		expect(readdirSync(join(dir, "sessions"))).toHaveLength(3);
		const opened = SessionManager.open(first, undefined, undefined, { readOnly: true });
		expect(opened.getLeafId()).toBe("a0000019");
	});
});

describe("deleting sessions", () => {
	it("refuses the open session and deletes others", () => {
		const dir = tempDir();
		const other = SessionManager.create("/w", dir);
		other.appendMessage(user("old"));
		other.dispose();
		const current = SessionManager.create("/w", dir);
		current.appendMessage(user("now"));
		expect(() => deleteSessionFile(current.getSessionFile()!, current)).toThrow(/Cannot delete the current session/);
		deleteSessionFile(other.getSessionFile()!, current);
		expect(existsSync(other.getSessionFile()!)).toBe(false);
		expect(existsSync(current.getSessionFile()!)).toBe(true);
		current.dispose();
	});
});
