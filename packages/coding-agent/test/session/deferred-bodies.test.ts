import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type SessionEntry, SessionManager, type SessionTreeNode } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { UnreadableSessionEntryError } from "../../src/core/session/index.js";
import { assistant, tempDir, toolCallAssistant, toolResult, usage, user } from "./helpers.js";

// Message bodies read on first use (docs/design/session-runtime.md#opening-a-long-session).

const TAIL = 64;

/** Whether an entry's message body is still unread (an accessor in place of the data property). */
function unread(entry: SessionEntry): boolean {
	return Object.getOwnPropertyDescriptor(entry, "message")?.get !== undefined;
}

function unreadIds(manager: SessionManager): string[] {
	return manager
		.getEntries()
		.filter(unread)
		.map((entry) => entry.id);
}

function open(path: string, deferBodies: boolean): SessionManager {
	return SessionManager.open(path, undefined, undefined, { lock: false, deferBodies });
}

/**
 * A session with every kind of entry and a branch near the start, then enough history that the start
 * is outside the last 64 lines. Returns the file and the ids of interest.
 */
function writeBusySession(dir: string) {
	const manager = SessionManager.create("/w", dir, { id: "busy" }, { lock: false });
	manager.appendModelChange("faux", "faux-1");
	manager.appendThinkingLevelChange("high");
	const first = manager.appendMessage(user("one"));
	manager.appendMessage(
		toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "a.txt" } }], {
			usage: { ...usage(10, 5), cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 } },
		}),
	);
	const result = manager.appendMessage(toolResult("c1", "contents of a"));
	const doomed = manager.appendMessage(assistant(`a long answer ${"that will be cut ".repeat(20)}`));
	const orphan = manager.appendMessage(user("child of the corrupt one"));
	manager.appendMessage(assistant("reply to the child"));
	manager.appendLabelChange(first, "start");
	manager.appendSessionInfo("busy session");
	manager.branch(result);
	const sibling = manager.appendMessage(assistant("the other way"));
	manager.appendContextEdit(result, { content: [{ type: "text", text: "edited" }] });
	manager.appendModelChange("faux", "faux-2");
	manager.appendCompaction("summary so far", sibling, 1234);
	for (let i = 0; i < 40; i++) {
		manager.appendMessage(user(`question ${i}`));
		manager.appendMessage(assistant(`answer ${i}`, { usage: usage(i, 1) }));
	}
	manager.appendThinkingLevelChange("low");
	const path = manager.getSessionFile()!;
	manager.dispose();
	return { path, first, doomed, orphan, sibling };
}

/** Cuts the body of the line of `id` short but keeps it ending in `}}` (matches the shape, does not parse). */
function corruptBody(path: string, id: string): number {
	const lines = readFileSync(path, "utf8").split("\n");
	const index = lines.findIndex((line) => line.includes(`"id":"${id}"`));
	const line = lines[index]!;
	lines[index] = `${line.slice(0, line.indexOf('"content"') + 30)}}}`;
	writeFileSync(path, lines.join("\n"));
	return index + 1;
}

/** Adds a field after `message` to the line of `id` (valid JSON that a body alone does not parse as). */
function addFieldAfterMessage(path: string, id: string): void {
	const lines = readFileSync(path, "utf8").split("\n");
	const index = lines.findIndex((line) => line.includes(`"id":"${id}"`));
	lines[index] = `${lines[index]!.slice(0, -1)},"note":{"by":"hand"}}`;
	writeFileSync(path, lines.join("\n"));
}

/** Inserts a line that is not JSON after the line of `id`. */
function insertGarbage(path: string, afterId: string): void {
	const lines = readFileSync(path, "utf8").split("\n");
	const index = lines.findIndex((line) => line.includes(`"id":"${afterId}"`));
	lines.splice(index + 1, 0, '{"type":"message","id":"broken",');
	writeFileSync(path, lines.join("\n"));
}

function treeShape(nodes: SessionTreeNode[]): unknown[] {
	return nodes.map((node) => ({ id: node.entry.id, label: node.label, children: treeShape(node.children) }));
}

function observable(manager: SessionManager) {
	const entries = manager.getEntries();
	return {
		entries,
		lines: entries.map((entry) => JSON.stringify(entry)),
		spread: entries.map((entry) => ({ ...entry })),
		leaf: manager.getLeafId(),
		branch: manager.getBranch().map((entry) => entry.id),
		tree: treeShape(manager.getTree()),
		projection: manager.buildSessionProjection(),
		totals: manager.getEntryTotals(),
		name: manager.getSessionName(),
		diagnostics: [...manager.getDiagnostics()],
	};
}

describe("deferred message bodies", () => {
	it.each([
		["a torn fragment", '{"type":"message","id":"torn","parentId":null,"timest'],
		[
			"a torn line that still ends in }}",
			'{"type":"message","id":"torn","parentId":null,"timestamp":"x","message":{"a":}}',
		],
	])("after readDeferredBodies, a deferred open equals an eager one (last line: %s)", (_, torn) => {
		const dir = tempDir();
		const { path, doomed, orphan, first } = writeBusySession(dir);
		const doomedLine = corruptBody(path, doomed);
		insertGarbage(path, orphan);
		addFieldAfterMessage(path, first);
		appendFileSync(path, torn);

		const deferred = open(path, true);
		expect(deferred.hasDeferredBodies()).toBe(true);
		expect(deferred.readDeferredBodies()).toBe(1);
		expect(deferred.hasDeferredBodies()).toBe(false);
		expect(deferred.readDeferredBodies()).toBe(0);
		const eager = open(path, false);

		const expected = observable(eager);
		const actual = observable(deferred);
		expect(actual).toEqual(expected);
		expect(actual.lines).toEqual(expected.lines);
		expect(actual.entries.some(unread)).toBe(false);
		// The corrupt body and the garbage line are one warning, in line order, as a full load gives it.
		const warnings = actual.diagnostics.map((diagnostic) => diagnostic.message);
		expect(warnings[0]).toMatch(new RegExp(`^Skipped 3 unparseable line\\(s\\) in .* \\(line ${doomedLine}, `));
		expect(deferred.getEntry(doomed)).toBeUndefined();
		expect(Object.keys(deferred.getEntry(first)!)).toEqual([
			"type",
			"id",
			"parentId",
			"timestamp",
			"message",
			"note",
		]);
		expect(actual.tree.some((root) => (root as { id: string }).id === orphan)).toBe(true);
		deferred.dispose();
		eager.dispose();
	});

	it("reads no body outside the last 64 lines while opening, indexing and walking the branch", () => {
		const dir = tempDir();
		const { path, first } = writeBusySession(dir);
		const parsed = readFileSync(path, "utf8").trimEnd().split("\n");
		const manager = open(path, true);
		const entries = manager.getEntries();
		expect(entries).toHaveLength(parsed.length - 1);
		// Read: the first conversation entry (indexing stops asking there) and the last 64 parsed lines.
		const tailStart = parsed.length - TAIL - 1;
		const expectedUnread = entries
			.filter((entry, index) => entry.type === "message" && entry.id !== first && index < tailStart)
			.map((entry) => entry.id);
		expect(expectedUnread.length).toBeGreaterThan(5);
		expect(unreadIds(manager)).toEqual(expectedUnread);

		expect(manager.getLeafEntry()?.type).toBe("thinking_level_change");
		expect(manager.getBranch().length).toBeGreaterThan(TAIL);
		expect(manager.getEntryCount()).toBe(entries.length);
		expect(manager.getSessionName()).toBe("busy session");
		expect(manager.getLabel(first)).toBe("start");
		expect(manager.getTree()).toHaveLength(1);
		expect(manager.hasEntryTotals()).toBe(false);
		expect(unreadIds(manager)).toEqual(expectedUnread);

		// A first read leaves a data property in the same place: the entry serializes to its file line.
		const entry = manager.getEntry(expectedUnread[0]!)!;
		expect(entry.type === "message" && entry.message.role).toBeTruthy();
		expect(unread(entry)).toBe(false);
		expect(`${JSON.stringify(entry)}`).toBe(parsed.find((line) => line.includes(`"id":"${entry.id}"`)));
		expect(manager.hasDeferredBodies()).toBe(true);

		// The queries read the bodies they need through the accessor.
		const eager = open(path, false);
		expect(manager.buildSessionProjection()).toEqual(eager.buildSessionProjection());
		expect(manager.getEntries()).toEqual(eager.getEntries());
		expect(manager.hasDeferredBodies()).toBe(false);
		manager.dispose();
	});

	it("a corrupt body throws on first read, naming the entry and line; readDeferredBodies then removes it", () => {
		const dir = tempDir();
		const { path, doomed, orphan } = writeBusySession(dir);
		const line = corruptBody(path, doomed);
		const manager = open(path, true);
		expect(manager.getDiagnostics()).toEqual([]);
		const entry = manager.getEntry(doomed)!;
		expect(() => (entry as { message: unknown }).message).toThrow(UnreadableSessionEntryError);
		expect(() => (entry as { message: unknown }).message).toThrow(
			new RegExp(`Session entry ${doomed} \\(line ${line}\\) has an unreadable message body`),
		);
		const totals = manager.getEntryTotals();
		manager.branch(orphan);
		expect(manager.getBranch().map((candidate) => candidate.id)).toContain(doomed);

		expect(manager.readDeferredBodies()).toBe(1);
		expect(manager.getEntry(doomed)).toBeUndefined();
		expect(manager.getEntries().some((candidate) => candidate.id === doomed)).toBe(false);
		expect(manager.getTree().map((root) => root.entry.id)).toContain(orphan);
		// Totals taken before the removal counted the unreadable body as nothing: they equal a full load's.
		expect(manager.getEntryTotals()).toEqual(totals);
		expect(totals).toEqual(open(path, false).getEntryTotals());
		expect(manager.getDiagnostics().map((diagnostic) => diagnostic.message)).toEqual([
			`Skipped 1 unparseable line(s) in ${path} (line ${line})`,
		]);
		// The cached branch is rebuilt from the new index: it starts below the removed entry.
		expect(manager.getBranch().map((candidate) => candidate.id)).toEqual([orphan]);
		manager.dispose();
	});

	it("a corrupt body within the last 64 lines is skipped at load, exactly as an eager load skips it", () => {
		const dir = tempDir();
		const { path } = writeBusySession(dir);
		const lines = readFileSync(path, "utf8").trimEnd().split("\n");
		const id = JSON.parse(lines.at(-3)!).id as string;
		corruptBody(path, id);
		const deferred = open(path, true);
		const eager = open(path, false);
		expect(deferred.getDiagnostics()).toEqual(eager.getDiagnostics());
		expect(deferred.getDiagnostics()).toHaveLength(1);
		expect(deferred.getEntry(id)).toBeUndefined();
		expect(deferred.getBranch().map((entry) => entry.id)).toEqual(eager.getBranch().map((entry) => entry.id));
		deferred.dispose();
		eager.dispose();
	});

	it("appends after a deferred open (own, on a branch, another writer's) behave as after an eager one", () => {
		const dir = tempDir();
		const { path, sibling } = writeBusySession(dir);
		const deferred = SessionManager.open(path, undefined, undefined, { deferBodies: true });
		expect(deferred.hasEntryTotals()).toBe(false);
		const lazyTotals = deferred.getEntryTotals();
		expect(deferred.hasEntryTotals()).toBe(true);
		expect(lazyTotals).toEqual(open(path, false).getEntryTotals());

		deferred.appendMessage(user("after the open"));
		deferred.appendMessage(assistant("answered", { usage: usage(100, 50) }));
		deferred.branch(sibling);
		deferred.appendMessage(user("on the old branch"));
		const foreign = {
			type: "message",
			id: "foreign1",
			parentId: sibling,
			timestamp: new Date().toISOString(),
			message: assistant("from another writer", { usage: usage(7, 7) }),
		};
		appendFileSync(path, `${JSON.stringify(foreign)}\n`);
		deferred.appendMessage(user("after the foreign line"));

		const incremental = deferred.getEntryTotals();
		expect(incremental.tokens.input).toBe(lazyTotals.tokens.input + 107);
		deferred.readDeferredBodies();
		const eager = open(path, false);
		expect(incremental).toEqual(eager.getEntryTotals());
		const actual = deferred.getEntries().map((entry) => JSON.stringify(entry));
		expect(actual).toEqual(eager.getEntries().map((entry) => JSON.stringify(entry)));
		expect(deferred.getBranch().map((entry) => entry.id)).toEqual(
			eager.getBranch(deferred.getLeafId()!).map((entry) => entry.id),
		);
		eager.branch(deferred.getLeafId()!);
		expect(deferred.buildSessionProjection()).toEqual(eager.buildSessionProjection());
		deferred.dispose();
		eager.dispose();
	});

	it("reads every body at once for a read-only open and for a file to migrate", () => {
		const dir = tempDir();
		const { path } = writeBusySession(dir);
		const readOnly = SessionManager.open(path, undefined, undefined, { readOnly: true, deferBodies: true });
		expect(readOnly.getEntries().some(unread)).toBe(false);
		expect(readOnly.hasDeferredBodies()).toBe(false);

		const old = join(dir, "old.jsonl");
		const lines = readFileSync(path, "utf8").trimEnd().split("\n");
		const header = { ...JSON.parse(lines[0]!), version: 2 };
		writeFileSync(old, `${[JSON.stringify(header), ...lines.slice(1)].join("\n")}\n`);
		const migrated = open(old, true);
		expect(migrated.getEntries().some(unread)).toBe(false);
		expect(migrated.getEntries().map((entry) => JSON.stringify(entry))).toEqual(
			open(path, false)
				.getEntries()
				.map((entry) => JSON.stringify(entry)),
		);
		migrated.dispose();
	});
});
