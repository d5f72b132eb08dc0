import { isRecord } from "./dom.js";

/** One session line as the viewer reads it: only `type` and `id` are checked, the rest stays untrusted. */
export interface Entry {
	type: string;
	id: string;
	parentId: string | null;
	timestamp?: unknown;
	[field: string]: unknown;
}

export interface SessionHeader {
	id?: unknown;
	cwd?: unknown;
	timestamp?: unknown;
	parentSession?: unknown;
	version?: unknown;
}

/** The custom entry recording that a tool call was about to run (docs/sessions.md, tool intents). */
export const TOOL_INTENT_TYPE = "tau.tool-intent";

/** The session as a tree: entries by id, children in file order, labels and tool results. */
export class SessionModel {
	readonly header: SessionHeader | undefined;
	readonly entries: Entry[] = [];
	readonly byId = new Map<string, Entry>();
	/** Children by parent id; roots (and entries whose parent is missing) under `null`. */
	readonly children = new Map<string | null, Entry[]>();
	/** Current label per entry id (the newest `label` entry for it; an empty label clears it). */
	readonly labels = new Map<string, string>();
	/** Tool result entries by tool call id (the first one recorded). */
	readonly toolResults = new Map<string, Entry>();
	/** Tool call ids with a recorded intent: without a result, their outcome is unknown. */
	readonly toolIntents = new Set<string>();
	/** The session's display name (its newest `session_info`). */
	name: string | undefined;
	readonly leafId: string | null;

	constructor(lines: unknown[], leafId: unknown) {
		for (const line of lines) {
			if (!isRecord(line)) continue;
			if (line.type === "session") {
				this.header ??= line as SessionHeader;
				continue;
			}
			if (typeof line.type !== "string" || typeof line.id !== "string" || this.byId.has(line.id)) continue;
			const entry = { ...line, parentId: typeof line.parentId === "string" ? line.parentId : null } as Entry;
			this.entries.push(entry);
			this.byId.set(entry.id, entry);
		}
		for (const entry of this.entries) {
			const parent = entry.parentId !== null && this.byId.has(entry.parentId) ? entry.parentId : null;
			if (parent !== entry.parentId) entry.parentId = null;
			const siblings = this.children.get(parent);
			if (siblings) siblings.push(entry);
			else this.children.set(parent, [entry]);
			this.index(entry);
		}
		this.breakCycles();
		const last = this.entries.at(-1)?.id ?? null;
		this.leafId = typeof leafId === "string" && this.byId.has(leafId) ? leafId : last;
	}

	private index(entry: Entry): void {
		if (entry.type === "label" && typeof entry.targetId === "string") {
			const label = typeof entry.label === "string" ? entry.label.trim() : "";
			if (label) this.labels.set(entry.targetId, label);
			else this.labels.delete(entry.targetId);
		} else if (entry.type === "session_info") {
			this.name = typeof entry.name === "string" && entry.name.trim() ? entry.name.trim() : undefined;
		} else if (entry.type === "custom" && entry.customType === TOOL_INTENT_TYPE && isRecord(entry.data)) {
			if (typeof entry.data.toolCallId === "string") this.toolIntents.add(entry.data.toolCallId);
		} else if (entry.type === "message" && isRecord(entry.message) && entry.message.role === "toolResult") {
			const callId = entry.message.toolCallId;
			if (typeof callId === "string" && !this.toolResults.has(callId)) this.toolResults.set(callId, entry);
		}
	}

	/** A hand-edited file may loop parent links; every entry unreachable from a root becomes a root. */
	private breakCycles(): void {
		const reached = new Set<string>();
		const markSubtree = (roots: readonly Entry[]) => {
			const stack = [...roots];
			while (stack.length > 0) {
				const entry = stack.pop()!;
				reached.add(entry.id);
				stack.push(...this.childrenOf(entry.id));
			}
		};
		markSubtree(this.childrenOf(null));
		for (const entry of this.entries) {
			if (reached.has(entry.id) || entry.parentId === null) continue;
			const siblings = this.children.get(entry.parentId)!;
			siblings.splice(siblings.indexOf(entry), 1);
			entry.parentId = null;
			const roots = this.children.get(null);
			if (roots) roots.push(entry);
			else this.children.set(null, [entry]);
			markSubtree([entry]);
		}
	}

	childrenOf(id: string | null): readonly Entry[] {
		return this.children.get(id) ?? [];
	}

	/** Root first, ending at `id`. */
	pathTo(id: string): Entry[] {
		const path: Entry[] = [];
		for (let entry = this.byId.get(id); entry; entry = entry.parentId ? this.byId.get(entry.parentId) : undefined) {
			path.push(entry);
		}
		return path.reverse();
	}

	isAncestor(ancestorId: string, id: string): boolean {
		for (let entry = this.byId.get(id); entry; entry = entry.parentId ? this.byId.get(entry.parentId) : undefined) {
			if (entry.id === ancestorId) return true;
		}
		return false;
	}

	/**
	 * The leaf a branch through `id` ends at: the session's own leaf when it lies below `id`,
	 * else the newest child at every step.
	 */
	leafThrough(id: string): string {
		if (this.leafId && this.isAncestor(id, this.leafId)) return this.leafId;
		let current = id;
		for (;;) {
			const next = this.childrenOf(current).at(-1);
			if (!next) return current;
			current = next.id;
		}
	}
}
