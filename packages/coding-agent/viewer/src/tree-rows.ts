import { entrySummary, messageOf, roleOf, searchText } from "./entry-text.js";
import type { Entry, SessionModel } from "./session-model.js";

/** Which entries the tree shows, as in `/tree` (docs/export.md). */
export type TreeFilter = "default" | "no-tools" | "user" | "labeled" | "all";

export const TREE_FILTERS: readonly { id: TreeFilter; label: string; title: string }[] = [
	{ id: "default", label: "Default", title: "Conversation entries; settings and extension state hidden" },
	{ id: "no-tools", label: "No tools", title: "Like Default, without tool results" },
	{ id: "user", label: "User", title: "Only your messages" },
	{ id: "labeled", label: "Labeled", title: "Only labeled entries" },
	{ id: "all", label: "All", title: "Every entry of the session file" },
];

/** Bookkeeping entries that only the All filter (or a label) shows. */
const SETTINGS_TYPES = new Set([
	"model_change",
	"thinking_level_change",
	"label",
	"session_info",
	"custom",
	"usage",
	"context_edit",
]);

function passesFilter(model: SessionModel, entry: Entry, filter: TreeFilter): boolean {
	switch (filter) {
		case "all":
			return true;
		case "labeled":
			return model.labels.has(entry.id);
		case "user":
			return roleOf(entry) === "user";
		case "no-tools":
			if (roleOf(entry) === "toolResult") return false;
			return !SETTINGS_TYPES.has(entry.type) || model.labels.has(entry.id);
		default:
			return !SETTINGS_TYPES.has(entry.type) || model.labels.has(entry.id);
	}
}

export interface TreeRow {
	entry: Entry;
	/** Indentation: one step per branch point above the row. */
	depth: number;
	/** Marks a child of a branch point: `├` for all but the last sibling, `└` for the last. */
	branch?: "middle" | "last";
	kind: string;
	preview: string;
	label?: string;
}

function matches(entry: Entry, terms: readonly string[]): boolean {
	if (terms.length === 0) return true;
	const haystack = searchText(entry);
	return terms.every((term) => haystack.includes(term));
}

/**
 * The rows of the sidebar: visible entries in tree order, each hung under its nearest visible
 * ancestor. Iterative, so a chain of thousands of entries cannot overflow the stack.
 */
export function buildTreeRows(model: SessionModel, filter: TreeFilter, query: string): TreeRow[] {
	const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
	const shownChildren = new Map<string | null, Entry[]>();
	const pending: { entry: Entry; shownParent: string | null }[] = model
		.childrenOf(null)
		.map((entry) => ({ entry, shownParent: null }))
		.reverse();
	while (pending.length > 0) {
		const { entry, shownParent } = pending.pop()!;
		const shown = passesFilter(model, entry, filter) && matches(entry, terms);
		if (shown) {
			const siblings = shownChildren.get(shownParent);
			if (siblings) siblings.push(entry);
			else shownChildren.set(shownParent, [entry]);
		}
		const parentOfChildren = shown ? entry.id : shownParent;
		const children = model.childrenOf(entry.id);
		for (let index = children.length - 1; index >= 0; index--) {
			pending.push({ entry: children[index]!, shownParent: parentOfChildren });
		}
	}
	const rows: TreeRow[] = [];
	const stack: { entry: Entry; depth: number; branch?: "middle" | "last" }[] = [];
	const pushChildren = (parent: string | null, depth: number) => {
		const children = shownChildren.get(parent) ?? [];
		const forks = children.length > 1;
		for (let index = children.length - 1; index >= 0; index--) {
			const entry = children[index]!;
			if (forks) stack.push({ entry, depth: depth + 1, branch: index === children.length - 1 ? "last" : "middle" });
			else stack.push({ entry, depth });
		}
	};
	pushChildren(null, -1);
	while (stack.length > 0) {
		const { entry, depth, branch } = stack.pop()!;
		const { kind, preview } = entrySummary(entry);
		const label = model.labels.get(entry.id);
		rows.push({
			entry,
			depth: Math.max(0, depth),
			kind,
			preview,
			...(branch ? { branch } : {}),
			...(label ? { label } : {}),
		});
		pushChildren(entry.id, Math.max(0, depth));
	}
	return rows;
}

/** Whether an assistant message failed or was aborted (shown in red in the tree). */
export function isFailure(entry: Entry): boolean {
	const stop = messageOf(entry)?.stopReason;
	return stop === "error" || stop === "aborted";
}
