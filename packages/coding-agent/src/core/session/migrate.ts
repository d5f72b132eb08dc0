import { CURRENT_SESSION_VERSION, isSessionHeader } from "./format.js";
import { generateId } from "./ids.js";
import type { FileEntry } from "./types.js";

type MutableEntry = Record<string, unknown>;

/** The version a header declares: missing means 1. */
export function headerVersion(entries: readonly FileEntry[]): number {
	const header = entries[0];
	if (!isSessionHeader(header)) return CURRENT_SESSION_VERSION;
	return typeof header.version === "number" ? header.version : 1;
}

/**
 * Brings loaded entries (header first) up to v3 in place. Returns the version found before migrating;
 * files at or above v3 are left untouched (a newer version is read as v3).
 */
export function migrateSessionEntries(entries: FileEntry[]): number {
	const version = headerVersion(entries);
	if (version >= CURRENT_SESSION_VERSION) return version;
	const header = entries[0] as unknown as MutableEntry;
	if (version < 2) {
		migrateLinearToTree(entries);
		header.version = 2;
	}
	for (const entry of entries) {
		const raw = entry as unknown as MutableEntry;
		if (raw.type !== "message") continue;
		const message = raw.message as MutableEntry | undefined;
		if (message && message.role === "hookMessage") message.role = "custom";
	}
	header.version = CURRENT_SESSION_VERSION;
	return version;
}

/** v1 files are a flat list: chain them in file order and turn index references into id references. */
function migrateLinearToTree(entries: FileEntry[]): void {
	const ids = new Set<string>();
	let previous: string | null = null;
	for (const entry of entries) {
		if (isSessionHeader(entry)) continue;
		const raw = entry as unknown as MutableEntry;
		const id = generateId(ids);
		ids.add(id);
		raw.id = id;
		raw.parentId = previous;
		previous = id;
	}
	for (const entry of entries) {
		const raw = entry as unknown as MutableEntry;
		if (raw.type !== "compaction" || !("firstKeptEntryIndex" in raw)) continue;
		const index = raw.firstKeptEntryIndex;
		if (typeof index === "number") {
			const target = entries[index];
			if (target && !isSessionHeader(target)) raw.firstKeptEntryId = target.id;
		}
		delete raw.firstKeptEntryIndex;
	}
}
