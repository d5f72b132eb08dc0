import type { SessionEntry } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { ActiveBranchCache, projectActiveBranch } from "../../src/core/session/active-branch.js";
import { assistant, user } from "./helpers.js";

/** An id index that counts lookups: the work a read of the branch does on the tree. */
class CountingIndex extends Map<string, SessionEntry> {
	lookups = 0;
	override get(id: string): SessionEntry | undefined {
		this.lookups++;
		return super.get(id);
	}
}

function messageEntry(index: number, parentId: string | null): SessionEntry {
	const message = index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`);
	return { type: "message", id: `e${index}`, parentId, timestamp: new Date(0).toISOString(), message };
}

/** A linear session of `length` messages with its branch and projection read once (the cache filled). */
function session(length: number) {
	const entries: SessionEntry[] = [];
	const byId = new CountingIndex();
	for (let index = 0; index < length; index++) {
		const entry = messageEntry(index, index === 0 ? null : `e${index - 1}`);
		entries.push(entry);
		byId.set(entry.id, entry);
	}
	const tree = { entries, byId, leafId: entries.at(-1)!.id as string | null };
	const cache = new ActiveBranchCache();
	projectActiveBranch(cache.read(tree)!);
	return { entries, byId, tree, cache };
}

/** One turn's worth of appends on the leaf (a reply and the next question), then the reads a request does. */
function turn(s: ReturnType<typeof session>): number {
	s.byId.lookups = 0;
	for (let step = 0; step < 2; step++) {
		const entry = messageEntry(s.entries.length, s.tree.leafId);
		s.entries.push(entry);
		s.byId.set(entry.id, entry);
		s.tree.leafId = entry.id;
	}
	const active = s.cache.read(s.tree)!;
	projectActiveBranch(active);
	return s.byId.lookups;
}

describe("per-turn branch and projection work does not grow with the session", () => {
	it("a turn on a 20,000-entry session looks up as many entries as one on a 200-entry session", () => {
		const short = session(200);
		const long = session(20_000);
		const shortCost = turn(short);
		expect(turn(long)).toBe(shortCost);
		expect(shortCost).toBeLessThan(10);
	});

	it("the cached branch and its projection are extended in place, and match what was appended", () => {
		const s = session(1_000);
		const before = s.cache.read(s.tree)!;
		const projection = before.projection;
		turn(s);
		const after = s.cache.read(s.tree)!;
		expect(after).toBe(before);
		expect(after.projection).toBe(projection);
		expect(after.path).toHaveLength(1_002);
		expect(projectActiveBranch(after).messages.slice(-2)).toMatchObject([{ role: "user" }, { role: "assistant" }]);
		expect(projectActiveBranch(after).messages).toHaveLength(1_002);
	});

	it("moving the leaf off the branch rebuilds it (the negative control: a rebuild walks the whole path)", () => {
		const s = session(1_000);
		s.byId.lookups = 0;
		s.tree.leafId = "e500";
		const active = s.cache.read(s.tree)!;
		expect(active.path).toHaveLength(501);
		expect(s.byId.lookups).toBeGreaterThan(500);
	});
});
