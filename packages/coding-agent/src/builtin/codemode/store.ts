import type { SessionEntry } from "../../core/session/types.js";

/** Custom entry type recording one successful script's store writes. */
export const CODEMODE_STORE_ENTRY_TYPE = "codemode-store";

export interface CodemodeStoreEntryData {
	set: Record<string, unknown>;
	delete: string[];
}

function isStoreData(data: unknown): data is CodemodeStoreEntryData {
	if (!data || typeof data !== "object") return false;
	const { set, delete: deleted } = data as Record<string, unknown>;
	return (
		!!set &&
		typeof set === "object" &&
		!Array.isArray(set) &&
		Array.isArray(deleted) &&
		deleted.every((key) => typeof key === "string")
	);
}

/** The store as of a branch: each valid entry root→leaf applies its deletes, then its sets. */
export function readCodemodeStore(branch: readonly SessionEntry[]): Record<string, unknown> {
	const store: Record<string, unknown> = {};
	for (const entry of branch) {
		if (entry.type !== "custom" || entry.customType !== CODEMODE_STORE_ENTRY_TYPE || !isStoreData(entry.data))
			continue;
		for (const key of entry.data.delete) delete store[key];
		Object.assign(store, entry.data.set);
	}
	return store;
}

export function hasStoreChanges(writes: CodemodeStoreEntryData): boolean {
	return writes.delete.length > 0 || Object.keys(writes.set).length > 0;
}
