import { walkToRoot } from "./path.js";
import { type ExtensibleProjection, extendProjection, projectExtensibly } from "./projection.js";
import type { SessionEntry, SessionProjection } from "./types.js";

/** The tree state the cached branch was computed from; compared by identity on every read. */
export interface TreeSnapshot {
	entries: readonly SessionEntry[];
	byId: ReadonlyMap<string, SessionEntry>;
	leafId: string | null;
}

/**
 * The active branch as of one state of the tree. Entries are only ever appended (a rollback pops the
 * entry it just pushed; a reset replaces the arrays), so the entry array, its length (with the last
 * entry as a check), the index and the leaf together identify the state; the agent loop reads the
 * branch several times per turn. Appends that continue the branch from its leaf extend it in place.
 */
export interface ActiveBranch {
	entries: readonly SessionEntry[];
	count: number;
	last: SessionEntry | undefined;
	byId: ReadonlyMap<string, SessionEntry>;
	leafId: string;
	path: SessionEntry[];
	/**
	 * The index's size when the branch was last walked or extended: an appended entry that reused an
	 * id (which could change the walk) leaves it short of the count of entries appended since.
	 */
	indexed: number;
	projection?: ExtensibleProjection;
}

/** Keeps the walk from the leaf (and its projection) so per-turn reads cost nothing as the session grows. */
export class ActiveBranchCache {
	private cached: ActiveBranch | undefined;

	/**
	 * The cached walk from the leaf, rebuilt when the tree or the leaf changed. Undefined when there is
	 * no leaf entry, or when the walk warned (a cycle): those are rebuilt, and reported, on every read.
	 */
	read(tree: TreeSnapshot): ActiveBranch | undefined {
		const cached = this.cached;
		if (
			cached &&
			cached.entries === tree.entries &&
			cached.byId === tree.byId &&
			cached.count <= tree.entries.length &&
			cached.last === tree.entries[cached.count - 1]
		) {
			if (cached.count === tree.entries.length && cached.leafId === tree.leafId) return cached;
			if (extendActiveBranch(cached, tree)) return cached;
		}
		this.cached = undefined;
		const start = tree.leafId === null ? undefined : tree.byId.get(tree.leafId);
		if (!start) return undefined;
		const warnings: string[] = [];
		const path = walkToRoot(start, tree.byId, (message) => warnings.push(message));
		if (warnings.length > 0) return undefined;
		this.cached = {
			entries: tree.entries,
			count: tree.entries.length,
			last: tree.entries.at(-1),
			byId: tree.byId,
			leafId: start.id,
			path,
			indexed: tree.byId.size,
		};
		return this.cached;
	}
}

/**
 * Extends the cached branch in place when every entry appended since is the child of the one before
 * it, starting at the cached leaf and ending at the current leaf, with a fresh id: exactly what
 * walking from the new leaf would add. False (cache untouched) otherwise.
 */
function extendActiveBranch(cached: ActiveBranch, tree: TreeSnapshot): boolean {
	const appended = tree.entries.slice(cached.count);
	if (tree.byId.size - cached.indexed !== appended.length) return false;
	let parentId = cached.leafId;
	for (const entry of appended) {
		if (entry.parentId !== parentId || tree.byId.get(entry.id) !== entry) return false;
		parentId = entry.id;
	}
	if (parentId !== tree.leafId) return false;
	if (cached.projection && !extendProjection(cached.projection, appended)) cached.projection = undefined;
	for (const entry of appended) cached.path.push(entry);
	cached.indexed = tree.byId.size;
	cached.count = tree.entries.length;
	cached.last = tree.entries.at(-1);
	cached.leafId = parentId;
	return true;
}

/** The branch's projection, computed once per cached branch and extended with it. */
export function projectActiveBranch(active: ActiveBranch): SessionProjection {
	active.projection ??= projectExtensibly(active.path);
	return active.projection.projection;
}
