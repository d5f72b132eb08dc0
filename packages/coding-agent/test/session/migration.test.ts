import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateSessionEntries, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { loadEntriesFromFile, nodeSessionFileSystem } from "../../src/core/session/index.js";
import { fixture, tempDir } from "./helpers.js";

function copyFixture(name: string): string {
	const dir = tempDir();
	const path = join(dir, name);
	copyFileSync(fixture(name), path);
	return path;
}

describe("migration of v1 and v2 files", () => {
	it("turns a v1 file into a linear chain and maps firstKeptEntryIndex to an id", () => {
		const path = copyFixture("v1-linear.jsonl");
		const original = readFileSync(path);
		const manager = SessionManager.open(path);
		const entries = manager.getEntries();
		expect(manager.getHeader()!.version).toBe(3);
		expect(entries).toHaveLength(6);
		entries.forEach((entry, i) => {
			expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
			expect(entry.parentId).toBe(i === 0 ? null : entries[i - 1]!.id);
		});
		const compaction = entries[4]!;
		expect(compaction).toMatchObject({ type: "compaction", firstKeptEntryId: entries[2]!.id });
		expect("firstKeptEntryIndex" in compaction).toBe(false);
		expect(manager.buildSessionContext().messages.map((m) => m.role)).toEqual([
			"compactionSummary",
			"user",
			"custom",
			"user",
		]);
		manager.dispose();
		expect(readFileSync(path.replace(/\.jsonl$/, ".v1.bak"))).toEqual(original);
		const rewritten = loadEntriesFromFile(path);
		expect(rewritten[0]).toMatchObject({ version: 3 });
		expect(rewritten.slice(1)).toEqual(entries);
	});

	it("renames the v2 hookMessage role to custom", () => {
		const path = copyFixture("v2-hook-message.jsonl");
		const manager = SessionManager.open(path);
		expect(manager.getEntry("c0000002")).toMatchObject({ message: { role: "custom", customType: "ext" } });
		manager.dispose();
		expect(readFileSync(path, "utf8")).toContain('"role":"custom"');
	});

	it("leaves a v3 file byte-identical", () => {
		const path = copyFixture("pi-v3-full.jsonl");
		const before = readFileSync(path);
		const manager = SessionManager.open(path);
		manager.dispose();
		expect(readFileSync(path)).toEqual(before);
		expect(readdirSync(join(path, ".."))).toEqual(["pi-v3-full.jsonl"]);
	});

	it("is cumulative and idempotent in memory", () => {
		const entries = loadEntriesFromFile(fixture("v1-linear.jsonl"));
		expect(migrateSessionEntries(entries)).toBe(1);
		const snapshot = JSON.stringify(entries);
		expect(migrateSessionEntries(entries)).toBe(3);
		expect(JSON.stringify(entries)).toBe(snapshot);
	});

	it("a crash before the rename leaves the original intact; the next open succeeds and keeps bad lines in place", () => {
		const path = copyFixture("v2-hook-message.jsonl");
		const lines = readFileSync(path, "utf8").split("\n");
		lines.splice(2, 0, "{torn garbage");
		const original = lines.join("\n");
		writeFileSync(path, original);

		const crashing = SessionManager.open(path, undefined, undefined, {
			fileSystem: {
				...nodeSessionFileSystem,
				renameSync: () => {
					throw Object.assign(new Error("simulated crash before rename"), { code: "EIO" });
				},
			},
		});
		expect(readFileSync(path, "utf8")).toBe(original);
		expect(existsSync(path.replace(/\.jsonl$/, ".v2.bak"))).toBe(true);
		expect(crashing.isReadOnly()).toBe(true);
		expect(crashing.getDiagnostics().some((d) => d.level === "error")).toBe(true);
		expect(crashing.getEntry("c0000002")).toMatchObject({ message: { role: "custom" } });
		expect(() => crashing.appendCustomEntry("x")).toThrow(
			/^Could not rewrite migrated session file .*; opened read-only$/,
		);
		crashing.dispose();
		expect(readdirSync(join(path, "..")).filter((name) => name.includes(".tmp-"))).toEqual([]);

		const manager = SessionManager.open(path);
		expect(manager.isReadOnly()).toBe(false);
		manager.dispose();
		const rewritten = readFileSync(path, "utf8").split("\n");
		expect(rewritten[2]).toBe("{torn garbage");
		expect(JSON.parse(rewritten[0]!).version).toBe(3);
		expect(readFileSync(path.replace(/\.jsonl$/, ".v2.bak"), "utf8")).toBe(original);
	});
});
