import type { ResolvedLabel } from "./branch-extraction.js";
import type { WalkWarning } from "./path.js";
import type { SessionEntry, SessionTreeNode } from "./types.js";

/**
 * Builds the entry tree. Roots are entries whose parent is null, themselves, or missing (orphans after a
 * lost line); an entry caught in a parent cycle is cut loose and listed as a root. Children are sorted
 * by timestamp. Iterative, so a very deep session cannot overflow the stack.
 */
export function buildSessionTree(
	entries: Iterable<SessionEntry>,
	labels: ReadonlyMap<string, ResolvedLabel>,
	onWarning?: WalkWarning,
): SessionTreeNode[] {
	const nodes = new Map<string, SessionTreeNode>();
	for (const entry of entries) {
		const node: SessionTreeNode = { entry, children: [] };
		const label = labels.get(entry.id);
		if (label) {
			node.label = label.label;
			node.labelTimestamp = label.timestamp;
		}
		nodes.set(entry.id, node);
	}
	const roots: SessionTreeNode[] = [];
	const parentOf = new Map<string, SessionTreeNode>();
	for (const node of nodes.values()) {
		const parentId = node.entry.parentId;
		const parent = parentId !== null && parentId !== node.entry.id ? nodes.get(parentId) : undefined;
		if (parent) {
			parent.children.push(node);
			parentOf.set(node.entry.id, parent);
		} else roots.push(node);
	}
	const reached = new Set<string>();
	const visit = (root: SessionTreeNode): void => {
		const stack = [root];
		while (stack.length > 0) {
			const node = stack.pop()!;
			if (reached.has(node.entry.id)) continue;
			reached.add(node.entry.id);
			node.children.sort((a, b) => a.entry.timestamp.localeCompare(b.entry.timestamp));
			for (const child of node.children) stack.push(child);
		}
	};
	roots.forEach(visit);
	for (const node of nodes.values()) {
		if (reached.has(node.entry.id)) continue;
		const parent = parentOf.get(node.entry.id);
		if (parent) parent.children = parent.children.filter((child) => child !== node);
		onWarning?.(`Cyclic parent link at entry ${node.entry.id}; shown as a root`);
		roots.push(node);
		visit(node);
	}
	return roots;
}
