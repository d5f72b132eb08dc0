import type { SelectItem } from "@tau/tui";
import type { TreeFilterMode } from "../../../config/index.js";
import type { SessionEntry, SessionTreeNode } from "../../../core/session/index.js";
import { boundKey } from "../keybindings/app-keybindings.js";
import type { CommandHost } from "./command-host.js";
import { contentText, type TreeToolCall, toolCallsOf, treeEntryCopyText, treeEntryText } from "./tree-entry-text.js";
import { layoutTree, type TreeRow } from "./tree-layout.js";

const FILTERS: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

/** Filter keys in the tree (docs/design/interactive.md#slash-commands) → the mode they select. */
const FILTER_ACTIONS: Record<string, TreeFilterMode> = {
	"app.tree.filter.default": "default",
	"app.tree.filter.noTools": "no-tools",
	"app.tree.filter.userOnly": "user-only",
	"app.tree.filter.labeledOnly": "labeled-only",
	"app.tree.filter.all": "all",
};

/** Settings and bookkeeping entries the default view leaves out, as pi does. */
const SETTINGS_ENTRIES = new Set([
	"label",
	"context_edit",
	"custom",
	"model_change",
	"thinking_level_change",
	"session_info",
]);

function roleOf(entry: SessionEntry): string | undefined {
	return entry.type === "message" ? (entry.message as { role: string }).role : undefined;
}

/**
 * Whether the filter shows an entry. Usage records never show; an assistant message with only tool
 * calls shows only as the current leaf (its tool results name the calls).
 */
function shownBy(filter: TreeFilterMode, node: SessionTreeNode, leafId: string | null): boolean {
	const entry = node.entry;
	if (entry.type === "usage") return false;
	if (entry.type === "message" && entry.message.role === "assistant" && entry.id !== leafId) {
		const message = entry.message as { content?: unknown; stopReason?: string };
		const failed =
			message.stopReason !== undefined && message.stopReason !== "stop" && message.stopReason !== "toolUse";
		if (!contentText(message.content).trim() && !failed) return false;
	}
	const role = roleOf(entry);
	switch (filter) {
		case "all":
			return true;
		case "user-only":
			return role === "user";
		case "labeled-only":
			return node.label !== undefined;
		case "no-tools":
			return !SETTINGS_ENTRIES.has(entry.type) && role !== "toolResult";
		default:
			return !SETTINGS_ENTRIES.has(entry.type);
	}
}

/** The current leaf, or its nearest ancestor the filter shows. */
function shownLeaf(host: CommandHost, rows: readonly TreeRow[]): string | undefined {
	const manager = host.session.sessionManager;
	const shown = new Set(rows.map((row) => row.node.entry.id));
	let id = manager.getLeafId();
	while (id && !shown.has(id)) id = manager.getEntry(id)?.parentId ?? null;
	return id ?? undefined;
}

/** A label's time as pi shows it: `14:05` today, `3/7 14:05` this year, else `25/3/7 14:05`. */
function labelTime(timestamp: string, now = new Date()): string {
	const date = new Date(timestamp);
	const time = `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
	const day = `${date.getMonth() + 1}/${date.getDate()}`;
	if (date.getFullYear() !== now.getFullYear()) return `${String(date.getFullYear()).slice(-2)}/${day} ${time}`;
	if (date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return time;
	return `${day} ${time}`;
}

/** A row as pi draws it: connectors, fold and active-path markers, label (and its time), then the entry. */
function rowLabel(row: TreeRow, toolCalls: ReadonlyMap<string, TreeToolCall>, timestamps: boolean): string {
	const { node } = row;
	const foldMarker = row.folded && !/[├└]/.test(row.prefix) ? "⊞ " : "";
	const label = node.label ? `[${node.label}] ` : "";
	const time = timestamps && node.label && node.labelTimestamp ? `${labelTime(node.labelTimestamp)} ` : "";
	return `${row.prefix}${foldMarker}${row.active ? "• " : ""}${label}${time}${treeEntryText(node.entry, toolCalls)}`;
}

/** Ids from the current leaf up to its root. */
function activePathOf(host: CommandHost): Set<string> {
	const manager = host.session.sessionManager;
	const path = new Set<string>();
	for (let id = manager.getLeafId(); id && !path.has(id); id = manager.getEntry(id)?.parentId ?? null) path.add(id);
	return path;
}

/**
 * `Summarize branch?` before leaving a branch (unless `branchSummary.skipPrompt`): the options for
 * `navigateTree`, or undefined when the user backed out.
 */
async function askBranchSummary(
	host: CommandHost,
): Promise<{ summarize: boolean; customInstructions?: string } | undefined> {
	if (host.session.settingsManager.getBranchSummarySkipPrompt()) return { summarize: false };
	const choice = await host.pick("Summarize branch?", [
		{ value: "none", label: "No summary" },
		{ value: "summarize", label: "Summarize" },
		{ value: "custom", label: "Summarize with custom instructions" },
	]);
	if (!choice) return undefined;
	if (choice.value === "none") return { summarize: false };
	if (choice.value === "summarize") return { summarize: true };
	const instructions = await host.ask("Summary instructions", { placeholder: "What should the summary focus on?" });
	return instructions === undefined ? undefined : { summarize: true, customInstructions: instructions };
}

/** `app.tree.editLabel`: sets, changes or (empty text) clears the bookmark of an entry. */
async function editLabel(host: CommandHost, id: string): Promise<void> {
	const manager = host.session.sessionManager;
	const current = manager.getLabel(id);
	const label = await host.ask("Label", {
		placeholder: "Empty to remove the label",
		...(current ? { prefill: current } : {}),
	});
	if (label === undefined) return;
	manager.appendLabelChange(id, label.trim() || undefined);
	host.notify("info", label.trim() ? `Label set: ${label.trim()}` : "Label removed");
}

type TreeAction =
	| { kind: "filter"; filter: TreeFilterMode }
	| { kind: "label" }
	| { kind: "timestamps" }
	| { kind: "move"; to: string | undefined };

/**
 * `/tree` (docs/design/interactive.md#slash-commands): the session file's entries under a filter (`treeFilterMode` first;
 * `app.tree.filter.*` switch it), labels edited with `app.tree.editLabel`, label times toggled with
 * `app.tree.toggleLabelTimestamp`, the selected message copied with `app.message.copy`. Choosing an
 * entry continues from there, after an optional summary of the abandoned branch.
 */
export async function navigateTree(host: CommandHost): Promise<void> {
	const manager = host.session.sessionManager;
	if (manager.getTree().length === 0) {
		host.notify("info", "The session is empty");
		return;
	}
	let filter = host.session.settingsManager.getTreeFilterMode();
	let timestamps = false;
	const folded = new Set<string>();
	let selected: string | undefined;
	for (;;) {
		const leafId = manager.getLeafId();
		const rows = layoutTree(manager.getTree(), {
			shown: (node) => shownBy(filter, node, leafId),
			folded,
			activePath: activePathOf(host),
		});
		const toolCalls = toolCallsOf(manager.getEntries());
		const current = shownLeaf(host, rows);
		let action: TreeAction | undefined;
		const on = (next: TreeAction) => (item: SelectItem | undefined) => {
			action = next;
			selected = item?.value ?? selected;
			return next.kind !== "label" || item !== undefined;
		};
		const step = (offset: number) => FILTERS[(FILTERS.indexOf(filter) + offset + FILTERS.length) % FILTERS.length]!;
		const actions: Record<string, (item: SelectItem | undefined) => boolean> = {
			"app.tree.editLabel": on({ kind: "label" }),
			"app.tree.toggleLabelTimestamp": on({ kind: "timestamps" }),
			"app.tree.filter.cycleForward": on({ kind: "filter", filter: step(1) }),
			"app.tree.filter.cycleBackward": on({ kind: "filter", filter: step(-1) }),
			"app.message.copy": (item) => {
				const entry = item ? manager.getEntry(item.value) : undefined;
				const text = entry ? treeEntryCopyText(entry) : undefined;
				if (text) {
					host.copyToClipboard(text);
					host.notify("info", "Copied selected message to clipboard");
				}
				return false;
			},
		};
		for (const [id, mode] of Object.entries(FILTER_ACTIONS)) actions[id] = on({ kind: "filter", filter: mode });
		// Folding: Left folds an entry with entries below it, else moves to its parent; Right unfolds, else moves to its first child.
		actions["app.tree.foldOrUp"] = (item) => {
			const row = rows.find((candidate) => candidate.node.entry.id === item?.value);
			if (!row) return false;
			const folds = row.foldable && !row.folded;
			if (folds) folded.add(row.node.entry.id);
			return on({ kind: "move", to: folds ? row.node.entry.id : row.parent })(item);
		};
		actions["app.tree.unfoldOrDown"] = (item) => {
			const row = rows.find((candidate) => candidate.node.entry.id === item?.value);
			if (!row) return false;
			if (row.folded) folded.delete(row.node.entry.id);
			const child = rows.find((candidate) => candidate.parent === row.node.entry.id)?.node.entry.id;
			return on({ kind: "move", to: row.folded ? row.node.entry.id : (child ?? row.node.entry.id) })(item);
		};
		const key = (id: string) => boundKey(host.keys, id);
		const chosen = await host.pick(
			`Session tree (filter: ${filter})`,
			rows.map((row) => ({ value: row.node.entry.id, label: rowLabel(row, toolCalls, timestamps) })),
			{
				...((selected ?? current) ? { selected: selected ?? current } : {}),
				hint: `Enter continue from here · ${key("app.tree.filter.cycleForward")} filter · ${key("app.tree.editLabel")} label · ${key("app.tree.toggleLabelTimestamp")} label times · ${key("app.message.copy")} copy`,
				actions,
			},
		);
		const taken = action as TreeAction | undefined;
		if (taken === undefined) {
			if (chosen) await continueFrom(host, chosen.value, current);
			return;
		}
		if (taken.kind === "move") selected = taken.to ?? selected;
		else if (taken.kind === "filter") filter = taken.filter;
		else if (taken.kind === "timestamps") timestamps = !timestamps;
		else if (chosen) await editLabel(host, chosen.value);
	}
}

async function continueFrom(host: CommandHost, id: string, current: string | undefined): Promise<void> {
	if (id === current) {
		host.notify("info", "Already at this point");
		return;
	}
	const summary = await askBranchSummary(host);
	if (summary === undefined) return;
	try {
		const result = await host.session.navigateTree(id, summary);
		if (result.cancelled) return;
		host.rebuildChat();
		host.setEditorText(result.editorText ?? "");
	} catch (error) {
		host.notify("error", (error as Error).message);
	}
}
