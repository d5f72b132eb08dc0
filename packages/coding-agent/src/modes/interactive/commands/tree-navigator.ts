import type { SelectItem } from "@tau/tui";
import type { TreeFilterMode } from "../../../config/index.js";
import type { SessionEntry, SessionTreeNode } from "../../../core/session/index.js";
import { boundKey } from "../keybindings/app-keybindings.js";
import type { CommandHost } from "./command-host.js";

const FILTERS: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

/** Filter keys in the tree (cli-modes.md §10.4) → the mode they select. */
const FILTER_ACTIONS: Record<string, TreeFilterMode> = {
	"app.tree.filter.default": "default",
	"app.tree.filter.noTools": "no-tools",
	"app.tree.filter.userOnly": "user-only",
	"app.tree.filter.labeledOnly": "labeled-only",
	"app.tree.filter.all": "all",
};

/** Bookkeeping entries the default view leaves out (they have no text of their own). */
const BOOKKEEPING = new Set(["label", "session_info", "model_change", "thinking_level_change", "custom", "usage"]);

function oneLine(text: string, max = 70): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function roleOf(entry: SessionEntry): string | undefined {
	return entry.type === "message" ? (entry.message as { role: string }).role : undefined;
}

function shownBy(filter: TreeFilterMode, node: SessionTreeNode): boolean {
	const role = roleOf(node.entry);
	switch (filter) {
		case "all":
			return true;
		case "user-only":
			return role === "user";
		case "labeled-only":
			return node.label !== undefined;
		case "no-tools":
			return !BOOKKEEPING.has(node.entry.type) && role !== "toolResult";
		default:
			return !BOOKKEEPING.has(node.entry.type);
	}
}

/** The text of a message entry (tool calls as `[name]`), for the row and for copying. */
function entryText(entry: SessionEntry): string {
	if (entry.type !== "message") return "";
	const content = (entry.message as { content?: unknown }).content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part: { type: string; text?: string; name?: string }) =>
			part.type === "text" ? part.text : part.type === "toolCall" ? `[${part.name}]` : "",
		)
		.filter(Boolean)
		.join(" ");
}

function describeEntry(entry: SessionEntry): string {
	const role = roleOf(entry);
	return role ? `${role}: ${oneLine(entryText(entry))}` : `[${entry.type}]`;
}

interface Row {
	node: SessionTreeNode;
	depth: number;
	/** The nearest ancestor shown in the list. */
	parent: string | undefined;
	/** Whether shown entries below it are hidden by folding. */
	folded: boolean;
}

/**
 * Depth-first rows of the entries the filter shows; a hidden entry's children take its place, a
 * folded entry hides what is below it, and a chain of single children stays at one indentation level.
 */
function flatten(
	nodes: readonly SessionTreeNode[],
	depth: number,
	view: { filter: TreeFilterMode; folded: ReadonlySet<string> },
	parent: string | undefined,
	out: Row[],
): void {
	for (const node of nodes) {
		const shown = shownBy(view.filter, node);
		const id = node.entry.id;
		const folded = shown && view.folded.has(id) && node.children.length > 0;
		if (shown) out.push({ node, depth, parent, folded });
		if (folded) continue;
		const branching = nodes.length > 1 || node.children.length > 1;
		flatten(node.children, shown && branching ? depth + 1 : depth, view, shown ? id : parent, out);
	}
}

/** The current leaf, or its nearest ancestor the filter shows. */
function shownLeaf(host: CommandHost, rows: readonly Row[]): string | undefined {
	const manager = host.session.sessionManager;
	const shown = new Set(rows.map((row) => row.node.entry.id));
	let id = manager.getLeafId();
	while (id && !shown.has(id)) id = manager.getEntry(id)?.parentId ?? null;
	return id ?? undefined;
}

function labelText(node: SessionTreeNode, timestamps: boolean): string {
	if (!node.label) return "";
	const at = timestamps && node.labelTimestamp ? ` @ ${node.labelTimestamp.slice(0, 16).replace("T", " ")}` : "";
	return ` [${node.label}${at}]`;
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
 * `/tree` (cli-modes.md §10.4): the session file's entries under a filter (`treeFilterMode` first;
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
		const rows: Row[] = [];
		flatten(manager.getTree(), 0, { filter, folded }, undefined, rows);
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
				const text = entry ? entryText(entry) : "";
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
			const hasChildren = rows.some((candidate) => candidate.parent === row.node.entry.id);
			if (hasChildren) folded.add(row.node.entry.id);
			return on({ kind: "move", to: hasChildren ? row.node.entry.id : row.parent })(item);
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
			rows.map(({ node, depth, folded: isFolded }) => ({
				value: node.entry.id,
				label: `${"  ".repeat(depth)}${isFolded ? "▸ " : ""}${node.entry.id === current ? "● " : ""}${describeEntry(node.entry)}${labelText(node, timestamps)}`,
			})),
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
