import type { SessionEntry } from "./types.js";

/** Reports a structural problem found while walking (cycles); the manager turns it into a diagnostic. */
export type WalkWarning = (message: string) => void;

export function indexEntries(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
	const byId = new Map<string, SessionEntry>();
	for (const entry of entries) byId.set(entry.id, entry);
	return byId;
}

/**
 * Root-first path ending at `leafId`: `null` is the empty path, `undefined` (or an unknown id) starts at
 * the last entry. A missing parent ends the walk (orphan); a revisited id ends it too (cycle guard).
 */
export function buildSessionPath(
	entries: readonly SessionEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, SessionEntry>,
	onWarning?: WalkWarning,
): SessionEntry[] {
	if (leafId === null) return [];
	const index = byId ?? indexEntries(entries);
	const start = (leafId !== undefined ? index.get(leafId) : undefined) ?? entries[entries.length - 1];
	return start ? walkToRoot(start, index, onWarning) : [];
}

/**
 * Root-first path from `start` up its parent links. A missing parent ends the walk (orphan); a parent
 * whose id is already on the path ends it too, with a warning (cycle guard).
 */
export function walkToRoot(
	start: SessionEntry,
	byId: ReadonlyMap<string, SessionEntry>,
	onWarning?: WalkWarning,
): SessionEntry[] {
	// Without a set of visited ids: every parent after `start` is the index's entry for its own id, so
	// ids repeat only if the walk returns to `start`'s id or outgrows the index (a cycle). Either, or
	// an index whose keys are not their entries' ids, is walked again with the guard.
	const path: SessionEntry[] = [];
	let current = start;
	for (;;) {
		path.push(current);
		const parentId = current.parentId;
		if (parentId === null || parentId === current.id) break;
		const parent = byId.get(parentId);
		if (!parent) break;
		if (parent.id !== parentId || parent.id === start.id || path.length > byId.size) {
			return guardedWalk(start, byId, onWarning);
		}
		current = parent;
	}
	return path.reverse();
}

/** `walkToRoot` with a set of visited ids, for walks that may revisit one. */
function guardedWalk(
	start: SessionEntry,
	byId: ReadonlyMap<string, SessionEntry>,
	onWarning: WalkWarning | undefined,
): SessionEntry[] {
	const path: SessionEntry[] = [];
	const visited = new Set<string>();
	let current: SessionEntry | undefined = start;
	while (current) {
		if (visited.has(current.id)) {
			onWarning?.(`Cyclic parent link at entry ${current.id}; the walk stops there`);
			break;
		}
		visited.add(current.id);
		path.push(current);
		current = current.parentId === null || current.parentId === current.id ? undefined : byId.get(current.parentId);
	}
	return path.reverse();
}
