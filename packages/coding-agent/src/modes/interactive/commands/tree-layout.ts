import type { SessionTreeNode } from "../../../core/session/index.js";

/** One shown entry of `/tree`, with the connectors drawn before it. */
export interface TreeRow {
	node: SessionTreeNode;
	/** `├─ `, `└─ ` and `│` gutters, three columns per level (docs/tui.md, session tree). */
	prefix: string;
	/** The nearest ancestor that is shown. */
	parent: string | undefined;
	/** Folded, with shown entries below it hidden. */
	folded: boolean;
	/** Has shown entries below it (so it can be folded). */
	foldable: boolean;
	/** On the path from the root to the current leaf. */
	active: boolean;
}

export interface TreeView {
	shown(node: SessionTreeNode): boolean;
	folded: ReadonlySet<string>;
	/** Ids from the current leaf up to its root. */
	activePath: ReadonlySet<string>;
}

interface Gutter {
	position: number;
	show: boolean;
}

/**
 * The rows of the entries `view` shows, depth first with the branch holding the current leaf first.
 * A hidden entry's children take its place; a branch point indents its children, which get
 * connectors, and so does the first generation after it; a chain of single children stays flat.
 * Iterative, so a 20,000-entry chain needs no deep recursion.
 */
export function layoutTree(roots: readonly SessionTreeNode[], view: TreeView): TreeRow[] {
	const activeFirst = (nodes: readonly SessionTreeNode[]) => [
		...nodes.filter((node) => view.activePath.has(node.entry.id)),
		...nodes.filter((node) => !view.activePath.has(node.entry.id)),
	];
	// Pass 1: the shown entries, each under its nearest shown ancestor.
	const children = new Map<string | undefined, SessionTreeNode[]>([[undefined, []]]);
	const parents = new Map<string, string | undefined>();
	const order: SessionTreeNode[] = [];
	const pending: [SessionTreeNode, string | undefined][] = activeFirst(roots)
		.reverse()
		.map((node) => [node, undefined]);
	while (pending.length > 0) {
		const [node, parent] = pending.pop()!;
		const id = node.entry.id;
		const shown = view.shown(node);
		if (shown) {
			order.push(node);
			parents.set(id, parent);
			children.get(parent)!.push(node);
			children.set(id, []);
			if (view.folded.has(id) && node.children.length > 0) continue;
		}
		for (const child of activeFirst(node.children).reverse()) pending.push([child, shown ? id : parent]);
	}
	// Pass 2: indentation, connectors and gutters over the shown tree.
	const rows = new Map<string, TreeRow>();
	const shownRoots = children.get(undefined)!;
	const multipleRoots = shownRoots.length > 1;
	type Item = [SessionTreeNode, number, boolean, boolean, boolean, Gutter[], boolean];
	const stack: Item[] = shownRoots
		.map(
			(node, i): Item => [
				node,
				multipleRoots ? 1 : 0,
				multipleRoots,
				multipleRoots,
				i === shownRoots.length - 1,
				[],
				multipleRoots,
			],
		)
		.reverse();
	while (stack.length > 0) {
		const [node, indent, justBranched, showConnector, isLast, gutters, virtualRootChild] = stack.pop()!;
		const id = node.entry.id;
		const below = children.get(id) ?? [];
		const folded = view.folded.has(id) && node.children.length > 0;
		const foldable = below.length > 0 || folded;
		const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
		const connector = showConnector && !virtualRootChild;
		rows.set(id, {
			node,
			prefix: prefixOf(displayIndent, gutters, connector ? { isLast, folded, foldable } : undefined),
			parent: parents.get(id),
			folded,
			foldable,
			active: view.activePath.has(id),
		});
		const branching = below.length > 1;
		const childIndent = branching || (justBranched && indent > 0) ? indent + 1 : indent;
		const childGutters = connector
			? [...gutters, { position: Math.max(0, displayIndent - 1), show: !isLast }]
			: gutters;
		for (let i = below.length - 1; i >= 0; i--) {
			stack.push([below[i]!, childIndent, branching, branching, i === below.length - 1, childGutters, false]);
		}
	}
	return order.map((node) => rows.get(node.entry.id)!);
}

function prefixOf(
	displayIndent: number,
	gutters: readonly Gutter[],
	connector: { isLast: boolean; folded: boolean; foldable: boolean } | undefined,
): string {
	let prefix = "";
	for (let level = 0; level < displayIndent; level++) {
		const gutter = gutters.find((candidate) => candidate.position === level);
		if (gutter) prefix += `${gutter.show ? "│" : " "}  `;
		else if (connector && level === displayIndent - 1) {
			const mark = connector.folded ? "⊞" : connector.foldable ? "⊟" : "─";
			prefix += `${connector.isLast ? "└" : "├"}${mark} `;
		} else prefix += "   ";
	}
	return prefix;
}
