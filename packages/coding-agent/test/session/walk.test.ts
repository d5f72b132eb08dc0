import type { SessionEntry } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { buildSessionPath } from "../../src/core/session/index.js";
import { user } from "./helpers.js";

/** The walk as specified: a set of visited ids stops it at the first id seen twice, with a warning. */
function referenceWalk(start: SessionEntry, byId: ReadonlyMap<string, SessionEntry>, warnings: string[]) {
	const path: SessionEntry[] = [];
	const visited = new Set<string>();
	let current: SessionEntry | undefined = start;
	while (current) {
		if (visited.has(current.id)) {
			warnings.push(`Cyclic parent link at entry ${current.id}; the walk stops there`);
			break;
		}
		visited.add(current.id);
		path.push(current);
		current = current.parentId === null || current.parentId === current.id ? undefined : byId.get(current.parentId);
	}
	return path.reverse();
}

/** A deterministic generator (mulberry32), so a failure names a reproducible seed. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const entry = (id: string, parentId: string | null): SessionEntry => ({
	type: "message",
	id,
	parentId,
	timestamp: new Date(0).toISOString(),
	message: user(id),
});

/** Mostly chains, with duplicate ids, self links, missing parents and cycles mixed in. */
function tangledEntries(next: () => number, count: number): SessionEntry[] {
	const ids = Array.from({ length: count }, (_, i) => `e${i}`);
	const pick = () => ids[Math.floor(next() * ids.length)]!;
	return ids.map((id, i) => {
		const roll = next();
		const ownId = roll < 0.05 ? pick() : id;
		if (roll < 0.1) return entry(ownId, null);
		if (roll < 0.15) return entry(ownId, ownId);
		if (roll < 0.2) return entry(ownId, "missing");
		if (roll < 0.35) return entry(ownId, pick());
		return entry(ownId, i === 0 ? null : ids[i - 1]!);
	});
}

describe("the walk from a leaf to the root", () => {
	it("matches the visited-set walk on tangled trees: same path, same warnings", () => {
		for (let seed = 1; seed <= 200; seed++) {
			const next = random(seed);
			const entries = tangledEntries(next, 1 + Math.floor(next() * 60));
			const byId = new Map(entries.map((e) => [e.id, e]));
			// Also an index whose keys are not their entries' ids (a caller's own index).
			const skewed = new Map(entries.map((e, i) => [entries[(i + 1) % entries.length]!.id, e]));
			for (const index of [byId, skewed]) {
				for (const leaf of [...entries.map((e) => e.id), undefined]) {
					const warnings: string[] = [];
					const expectedWarnings: string[] = [];
					const start = (leaf !== undefined ? index.get(leaf) : undefined) ?? entries.at(-1)!;
					const expected = referenceWalk(start, index, expectedWarnings);
					const walked = buildSessionPath(entries, leaf, index, (message) => warnings.push(message));
					expect(walked, `seed ${seed}, leaf ${leaf}`).toEqual(expected);
					expect(warnings, `seed ${seed}, leaf ${leaf}`).toEqual(expectedWarnings);
				}
			}
		}
	});

	it("a cycle through the leaf's id stops the walk before the id repeats, with a warning", () => {
		const entries = [entry("a", "c"), entry("b", "a"), entry("c", "b")];
		const warnings: string[] = [];
		const path = buildSessionPath(entries, "c", undefined, (message) => warnings.push(message));
		expect(path.map((e) => e.id)).toEqual(["a", "b", "c"]);
		expect(warnings).toEqual(["Cyclic parent link at entry c; the walk stops there"]);
	});

	it("an id seen twice stops the walk even when the index holds a different entry for it", () => {
		// The start is not the index's entry for its id (a caller's older index): its id comes back.
		const first = entry("x", null);
		const middle = entry("y", "x");
		const last = entry("x", "y");
		const warnings: string[] = [];
		const index = new Map([
			["x", first],
			["y", middle],
		]);
		const path = buildSessionPath([first, middle, last], undefined, index, (message) => warnings.push(message));
		expect(path).toEqual([middle, last]);
		expect(warnings).toEqual(["Cyclic parent link at entry x; the walk stops there"]);
		// Keys that are not their entries' ids: two entries with one id under two keys.
		const start = entry("s", "p");
		const skewed = new Map([
			["p", entry("q", "p2")],
			["p2", entry("q", null)],
		]);
		const skewedWarnings: string[] = [];
		const walked = buildSessionPath([start], "s", skewed, (message) => skewedWarnings.push(message));
		expect(walked).toEqual([skewed.get("p"), start]);
		expect(skewedWarnings).toEqual(["Cyclic parent link at entry q; the walk stops there"]);
	});
});
