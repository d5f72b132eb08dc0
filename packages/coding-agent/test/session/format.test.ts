import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseSessionEntries, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	assertValidSessionId,
	encodeCwd,
	generateId,
	loadEntriesFromFile,
	readSessionHeader,
} from "../../src/core/session/index.js";
import { assistant, fixture, tempDir, user } from "./helpers.js";

describe("session file format", () => {
	it("writes a v3 header with a uuidv7 id, absolute cwd and a timestamped file name", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/home/ana/project", dir);
		manager.appendMessage(user("hi"));
		const file = manager.getSessionFile()!;
		const [headerLine] = readFileSync(file, "utf8").split("\n");
		const header = JSON.parse(headerLine!);
		expect(header.type).toBe("session");
		expect(header.version).toBe(3);
		expect(header.cwd).toBe("/home/ana/project");
		expect(header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(basename(file)).toBe(`${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
		expect(Object.keys(header)).toEqual(["type", "version", "id", "timestamp", "cwd"]);
		manager.dispose();
	});

	it("newSession: fresh v3 header, uuidv7 id, absolute cwd, parentSession, new file name in the same dir", () => {
		const dir = tempDir();
		const manager = SessionManager.create("relative/project", dir);
		manager.appendMessage(user("one"));
		const firstFile = manager.getSessionFile()!;
		const firstId = manager.getSessionId();
		const path = manager.newSession({ parentSession: firstFile })!;
		expect(path).toBe(manager.getSessionFile());
		expect(path).not.toBe(firstFile);
		expect(dirname(path)).toBe(dir);
		expect(manager.getEntries()).toEqual([]);
		expect(manager.getLeafId()).toBeNull();
		expect(existsSync(path)).toBe(false);
		manager.appendMessage(user("two"));
		const header = JSON.parse(readFileSync(path, "utf8").split("\n")[0]!);
		expect(header).toEqual({
			type: "session",
			version: 3,
			id: manager.getSessionId(),
			timestamp: header.timestamp,
			cwd: resolve("relative/project"),
			parentSession: firstFile,
		});
		expect(header.id).not.toBe(firstId);
		expect(header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(new Date(header.timestamp).toISOString()).toBe(header.timestamp);
		expect(basename(path)).toBe(`${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
		manager.dispose();
	});

	it("encodes cwds into directory names", () => {
		expect(encodeCwd("/home/a/b")).toBe("--home-a-b--");
		expect(encodeCwd("C:\\x\\y")).toBe("--C--x-y--");
		expect(encodeCwd("/")).toBe("----");
	});

	it("generates 8-hex entry ids unique within a file and validates custom session ids", () => {
		const taken = new Set<string>();
		for (let i = 0; i < 500; i++) {
			const id = generateId(taken);
			expect(id).toMatch(/^[0-9a-f]{8}$/);
			expect(taken.has(id)).toBe(false);
			taken.add(id);
		}
		expect(generateId({ has: () => true })).toMatch(/^[0-9a-f-]{36}$/);
		expect(() => assertValidSessionId("ok.id-1_x")).not.toThrow();
		for (const bad of ["", "-x", "x-", "a/b", "a b"]) {
			expect(() => assertValidSessionId(bad)).toThrow(/Session id must be non-empty/);
		}
		expect(() => SessionManager.create("/tmp", tempDir(), { id: "../evil" })).toThrow(/Session id must be/);
	});

	it("writes entries as compact JSON lines with base fields first", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const id = manager.appendMessage(user("hello"));
		const lines = readFileSync(manager.getSessionFile()!, "utf8").split("\n");
		expect(lines[2]).toBe("");
		const entry = JSON.parse(lines[1]!);
		expect(lines[1]).toBe(JSON.stringify(entry));
		expect(Object.keys(entry).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
		expect(entry).toMatchObject({ type: "message", id, parentId: null });
		manager.dispose();
	});

	it("round-trips line separators, CR and multi-byte text inside strings", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const text = "a\u2028b\u2029c\rd\ne 😀 ü".repeat(50_000);
		const id = manager.appendMessage(user(text));
		manager.dispose();
		expect(readFileSync(manager.getSessionFile()!, "utf8").split("\n")).toHaveLength(3);
		const reopened = SessionManager.open(manager.getSessionFile()!, undefined, undefined, { readOnly: true });
		expect((reopened.getEntry(id) as { message: { content: string } }).message.content).toBe(text);
	});

	it("loads a BOM-prefixed CRLF file with blank lines", () => {
		const manager = SessionManager.open(fixture("bom-crlf.jsonl"), undefined, undefined, { readOnly: true });
		expect(manager.getSessionId()).toBe("bom-crlf");
		expect(manager.getEntries().map((e) => e.id)).toEqual(["d0000001", "d0000002"]);
		expect(manager.buildSessionContext().messages[0]).toMatchObject({ role: "user", content: "über ✓" });
	});

	it("refuses a header version above 3 with a clear error and never touches the file", () => {
		const dir = tempDir();
		const file = join(dir, "future.jsonl");
		const header = { type: "session", version: 4, id: "future", timestamp: "2026-01-01T00:00:00.000Z", cwd: dir };
		const entry = {
			type: "message",
			id: "e1",
			parentId: null,
			timestamp: "2026-01-01T00:00:01.000Z",
			message: user("x"),
		};
		const content = `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`;
		writeFileSync(file, content);
		expect(() => SessionManager.open(file)).toThrow(
			`Session file ${file} has format version 4, newer than the version 3 this release reads; update to open it (the file was not changed)`,
		);
		expect(readFileSync(file, "utf8")).toBe(content);
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	it("refuses a file whose first line is not a header and leaves it untouched", () => {
		const dir = tempDir();
		const file = join(dir, "bogus.jsonl");
		const content = '{"type":"message","id":"x","parentId":null}\n{"foo":1}';
		writeFileSync(file, content);
		expect(() => SessionManager.open(file)).toThrow(`Session file is not a valid tau session: ${file}`);
		expect(readFileSync(file, "utf8")).toBe(content);
		expect(loadEntriesFromFile(file)).toEqual([]);
	});

	it("initializes a zero-byte file with a header", () => {
		const dir = tempDir();
		const file = join(dir, "empty.jsonl");
		writeFileSync(file, "");
		const manager = SessionManager.open(file, undefined, "/w");
		const lines = readFileSync(file, "utf8").split("\n");
		expect(lines).toHaveLength(2);
		expect(JSON.parse(lines[0]!)).toMatchObject({
			type: "session",
			version: 3,
			id: manager.getSessionId(),
			cwd: "/w",
		});
		manager.appendMessage(user("x"));
		expect(readFileSync(file, "utf8").split("\n")).toHaveLength(3);
		manager.dispose();
	});

	it("skips a header over 1 MiB in discovery but open loads it fully", () => {
		const dir = tempDir();
		const file = join(dir, "big.jsonl");
		const header = {
			type: "session",
			version: 3,
			id: "big",
			timestamp: "2026-01-01T00:00:00.000Z",
			cwd: dir,
			pad: "x".repeat(1_100_000),
		};
		const entry = {
			type: "message",
			id: "e1",
			parentId: null,
			timestamp: "2026-01-01T00:00:01.000Z",
			message: user("x"),
		};
		writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`);
		expect(readSessionHeader(file)).toBeNull();
		const manager = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(manager.getSessionId()).toBe("big");
		expect(manager.getEntries()).toHaveLength(1);
	});

	it("warns on duplicate ids, indexes the later entry, and survives parent cycles", () => {
		const dir = tempDir();
		const file = join(dir, "weird.jsonl");
		const e = (id: string, parentId: string | null, text: string) => ({
			type: "message",
			id,
			parentId,
			timestamp: `2026-01-01T00:00:0${text.length}.000Z`,
			message: user(text),
		});
		const lines = [
			{ type: "session", version: 3, id: "w", timestamp: "2026-01-01T00:00:00.000Z", cwd: dir },
			e("aa", null, "first"),
			e("aa", null, "second"),
			e("c1", "c2", "x"),
			e("c2", "c1", "yy"),
		];
		writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
		const manager = SessionManager.open(file, undefined, undefined, { readOnly: true });
		expect(manager.getDiagnostics().some((d) => /Duplicate entry id aa/.test(d.message))).toBe(true);
		expect((manager.getEntry("aa") as { message: { content: string } }).message.content).toBe("second");
		expect(manager.getBranch().map((x) => x.id)).toEqual(["c1", "c2"]);
		expect(manager.buildSessionContext().messages).toHaveLength(2);
		const roots = manager.getTree();
		const ids = (nodes: typeof roots): string[] => nodes.flatMap((n) => [n.entry.id, ...ids(n.children)]);
		expect(ids(roots).sort()).toEqual(["aa", "c1", "c2"]);
		expect(manager.getDiagnostics().some((d) => /Cyclic parent link/.test(d.message))).toBe(true);
	});

	it("parseSessionEntries skips blank and malformed lines without a header check", () => {
		expect(parseSessionEntries('{"a":1}\n\nnot json\n{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
	});

	it("an assistant-only append also creates the file", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		manager.appendMessage(assistant("hello"));
		expect(statSync(manager.getSessionFile()!).isFile()).toBe(true);
		manager.dispose();
	});
});
