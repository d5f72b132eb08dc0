import { ActiveBranchCache, projectActiveBranch, type TreeSnapshot } from "./active-branch.js";
import type { ResolvedLabel } from "./branch-extraction.js";
import { type DeferredBodies, deferredLine, readableMessage, readDeferredBody } from "./deferred-body.js";
import { addEntryTotals, copyEntryTotals, emptyEntryTotals, type SessionEntryTotals } from "./entry-totals.js";
import { isSessionHeader } from "./format.js";
import { unparseableLinesWarning } from "./loader.js";
import { indexEntries, walkToRoot } from "./path.js";
import { buildContextEntries, buildSessionProjection } from "./projection.js";
import { buildSessionTree } from "./tree.js";
import type {
	FileEntry,
	SessionContext,
	SessionDiagnostic,
	SessionEntry,
	SessionProjection,
	SessionTreeNode,
} from "./types.js";

const CONVERSATION_ROLES = new Set(["user", "assistant"]);

export function isConversationEntry(entry: SessionEntry): boolean {
	return entry.type === "message" && isConversationRole(entry.message);
}

function isConversationRole(message: unknown): boolean {
	return CONVERSATION_ROLES.has((message as { role?: string } | undefined)?.role as string);
}

/**
 * What a load with deferred bodies leaves to do: the bodies, and the skipped lines it reported (and
 * how), so reading the rest reports every skipped line as one full load would.
 */
export interface DeferredLoad {
	bodies: DeferredBodies;
	path: string;
	skippedLines: readonly number[];
	warning: SessionDiagnostic | undefined;
}

/**
 * The in-memory session tree: entries indexed by id, labels, the session name and the leaf, with the
 * queries over them (branches, the tree, the model's projection). `SessionManager` adds the file.
 */
export class SessionTree {
	protected entries: SessionEntry[] = [];
	protected byId = new Map<string, SessionEntry>();
	protected labels = new Map<string, ResolvedLabel>();
	protected leafId: string | null = null;
	protected sessionName: string | undefined;
	/** Whether the tree holds a user or assistant message (a persisted file is created only then). */
	protected conversation = false;
	protected diagnostics: SessionDiagnostic[] = [];
	/** Added up on the first `getEntryTotals()`, then kept as entries are indexed. */
	private totals: SessionEntryTotals | undefined;
	protected deferredLoad: DeferredLoad | undefined;
	private readonly activeBranch = new ActiveBranchCache();

	getDiagnostics(): readonly SessionDiagnostic[] {
		return this.diagnostics;
	}
	getLeafId(): string | null {
		return this.leafId;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.leafId === null ? undefined : this.byId.get(this.leafId);
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}
	getChildren(parentId: string | null): SessionEntry[] {
		return this.entries.filter((entry) => entry.parentId === parentId);
	}
	getLabel(id: string): string | undefined {
		return this.labels.get(id)?.label;
	}
	getEntryCount(): number {
		return this.byId.size;
	}
	/** Shallow copy without the header; the entries themselves must be treated as immutable. */
	getEntries(): SessionEntry[] {
		return [...this.entries];
	}
	getSessionName(): string | undefined {
		return this.sessionName;
	}
	/**
	 * Message counts and spend over every entry: added up on the first call (reading every body), then
	 * kept as entries are indexed. A fresh copy each call. An unreadable deferred body counts as nothing.
	 */
	getEntryTotals(): SessionEntryTotals {
		if (!this.totals) {
			const totals = emptyEntryTotals();
			for (const entry of this.entries) if (readDeferredBody(entry)) addEntryTotals(totals, entry);
			this.totals = totals;
		}
		return copyEntryTotals(this.totals);
	}
	/** Whether the totals are added up yet (a cheap query: `getEntryTotals()` may read every body). */
	hasEntryTotals(): boolean {
		return this.totals !== undefined;
	}
	/** Whether a deferred open left message bodies unread. */
	hasDeferredBodies(): boolean {
		return (this.deferredLoad?.bodies.unread ?? 0) > 0;
	}

	/**
	 * Reads every body a deferred open left unread, in one pass. An entry whose body does not parse is
	 * removed (its children become roots, as when a full load skips its line) and reported with the
	 * load's warning for skipped lines. Returns how many were removed.
	 */
	readDeferredBodies(): number {
		const load = this.deferredLoad;
		if (!load || load.bodies.unread === 0) return 0;
		const unreadable = new Map<SessionEntry, number>();
		for (const entry of this.entries) {
			const line = deferredLine(entry);
			if (line !== undefined && !readDeferredBody(entry)) unreadable.set(entry, line);
		}
		load.bodies.unread = 0;
		if (unreadable.size === 0) return 0;
		this.removeEntries(unreadable);
		const lines = [...load.skippedLines, ...unreadable.values()].sort((a, b) => a - b);
		const warning: SessionDiagnostic = { level: "warning", message: unparseableLinesWarning(load.path, lines) };
		const at = load.warning ? this.diagnostics.indexOf(load.warning) : -1;
		if (at === -1) this.diagnostics.unshift(warning);
		else this.diagnostics[at] = warning;
		this.deferredLoad = { ...load, skippedLines: lines, warning };
		return unreadable.size;
	}

	/** Root-first path to `fromId` (default: the leaf); `[]` for a null leaf or an unknown id. */
	getBranch(fromId?: string): SessionEntry[] {
		if (fromId === undefined || fromId === this.leafId) {
			const active = this.activeBranch.read(this.snapshot());
			if (active) return [...active.path];
		}
		const id = fromId ?? this.leafId;
		if (id === null) return [];
		const start = this.byId.get(id);
		return start ? walkToRoot(start, this.byId, (message) => this.warn(message)) : [];
	}

	branch(id: string): void {
		if (!this.byId.has(id)) throw new Error(`Entry ${id} not found`);
		this.leafId = id;
	}

	resetLeaf(): void {
		this.leafId = null;
	}

	/**
	 * The whole tree: roots are entries with a null, self or missing parent (and one entry of any parent
	 * cycle); children sorted by timestamp. Nodes are fresh copies.
	 */
	getTree(): SessionTreeNode[] {
		return buildSessionTree(this.byId.values(), this.labels, (message) => this.warn(message));
	}

	buildContextEntries(): SessionEntry[] {
		return buildContextEntries(this.entries, this.leafId, this.byId, (message) => this.warn(message));
	}
	/** A fresh top-level copy each call (callers may keep or extend the arrays); the cached one stays intact. */
	buildSessionProjection(): SessionProjection {
		const active = this.activeBranch.read(this.snapshot());
		if (!active) {
			return buildSessionProjection(this.entries, this.leafId, this.byId, (message) => this.warn(message));
		}
		const { entries, messages, thinkingLevel, model } = projectActiveBranch(active);
		return { entries: [...entries], messages: [...messages], thinkingLevel, model };
	}
	/** From the cached projection of the active branch: startup asks for it more than once. */
	buildSessionContext(): SessionContext {
		const { messages, thinkingLevel, model } = this.buildSessionProjection();
		return { messages, thinkingLevel, model };
	}

	private snapshot(): TreeSnapshot {
		return { entries: this.entries, byId: this.byId, leafId: this.leafId };
	}

	/** Empties the tree (new arrays and maps, so the cached branch can never match the old state). */
	protected resetTree(): void {
		this.entries = [];
		this.byId = new Map();
		this.labels = new Map();
		this.leafId = null;
		this.sessionName = undefined;
		this.conversation = false;
		this.totals = undefined;
		this.deferredLoad = undefined;
	}

	/** Drops entries as if their lines had never loaded: new arrays and index, so the cached branch is rebuilt. */
	private removeEntries(removed: ReadonlyMap<SessionEntry, unknown>): void {
		this.entries = this.entries.filter((entry) => !removed.has(entry));
		this.byId = indexEntries(this.entries);
		if (this.leafId !== null && !this.byId.has(this.leafId)) this.leafId = this.entries.at(-1)?.id ?? null;
		// The totals stay: they count an unreadable body as nothing.
		this.conversation = this.entries.some(isConversationEntry);
	}

	/**
	 * Indexes entries read from a file in order (headers skipped), warning about reused ids. One index
	 * write per entry: a reused id is the write that leaves the index's size unchanged.
	 */
	protected indexLoaded(fileEntries: readonly FileEntry[]): void {
		for (const entry of fileEntries) {
			if (isSessionHeader(entry)) continue;
			const size = this.byId.size;
			this.indexAppended(entry);
			if (this.byId.size === size) this.warn(`Duplicate entry id ${entry.id}; the later entry is used`);
		}
	}

	/** Adds an entry read from a file or built in memory; it becomes the leaf. */
	protected indexAppended(entry: SessionEntry): void {
		this.entries.push(entry);
		this.byId.set(entry.id, entry);
		this.leafId = entry.id;
		// An unread body is read only here, until the first conversation entry.
		if (!this.conversation && entry.type === "message" && isConversationRole(readableMessage(entry))) {
			this.conversation = true;
		}
		this.indexMetadata(entry);
	}

	/** What an indexed entry adds beyond the tree: labels, the session name, the totals. */
	protected indexMetadata(entry: SessionEntry): void {
		if (this.totals) addEntryTotals(this.totals, entry);
		if (entry.type === "label") {
			if (entry.label) this.labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
			else this.labels.delete(entry.targetId);
		} else if (entry.type === "session_info") {
			const name = typeof entry.name === "string" ? entry.name.trim() : "";
			this.sessionName = name === "" ? undefined : name;
		}
	}

	protected warn(message: string): void {
		this.diagnostics.push({ level: "warning", message });
	}

	protected error(message: string): void {
		this.diagnostics.push({ level: "error", message });
	}
}
