import { generateId } from "./ids.js";
import type { CompactionEntry, LabelEntry, SessionEntry } from "./types.js";

export interface ResolvedLabel {
	label: string;
	timestamp: string;
}

/**
 * The entries of a new file holding only `path` (root..leaf): label entries are dropped and the rest
 * re-chained, compactions that pointed at a dropped label are re-pointed to the next kept entry, and
 * the labels currently resolved for path entries are re-created at the end with their original times.
 * Entries are shallow copies; unknown fields survive.
 */
export function extractBranchEntries(
	path: readonly SessionEntry[],
	labels: ReadonlyMap<string, ResolvedLabel>,
): SessionEntry[] {
	const kept: SessionEntry[] = [];
	const redirect = new Map<string, string | undefined>();
	const pendingLabels: string[] = [];
	for (const entry of path) {
		if (entry.type === "label") {
			pendingLabels.push(entry.id);
			continue;
		}
		for (const labelId of pendingLabels) redirect.set(labelId, entry.id);
		pendingLabels.length = 0;
		kept.push({ ...entry, parentId: kept.length > 0 ? kept[kept.length - 1]!.id : null } as SessionEntry);
	}
	for (const entry of kept) {
		if (entry.type !== "compaction") continue;
		const target = redirect.get(entry.firstKeptEntryId);
		if (target !== undefined) (entry as CompactionEntry).firstKeptEntryId = target;
	}
	const ids = new Set(kept.map((entry) => entry.id));
	const result = [...kept];
	for (const entry of kept) {
		const label = labels.get(entry.id);
		if (!label) continue;
		const id = generateId(ids);
		ids.add(id);
		const labelEntry: LabelEntry = {
			type: "label",
			id,
			parentId: result[result.length - 1]!.id,
			timestamp: label.timestamp,
			targetId: entry.id,
			label: label.label,
		};
		result.push(labelEntry);
	}
	return result;
}
