import type { FileEntry, SessionEntry, SessionHeader } from "./types.js";

/** Format version of the session files tau writes; older files are migrated when loaded. */
export const CURRENT_SESSION_VERSION = 3;

/** A session written by a newer release: opening it would misread it, rewriting it would destroy it. */
export class UnsupportedSessionVersionError extends Error {
	constructor(
		readonly path: string,
		readonly version: number,
	) {
		super(
			`Session file ${path} has format version ${version}, newer than the version ${CURRENT_SESSION_VERSION} this release reads; update to open it (the file was not changed)`,
		);
		this.name = "UnsupportedSessionVersionError";
	}
}

/** One session line exactly as written: compact JSON and a single LF. */
export function serializeEntry(entry: FileEntry): string {
	return `${JSON.stringify(entry)}\n`;
}

export function isSessionHeader(value: unknown): value is SessionHeader {
	return (
		typeof value === "object" &&
		value !== null &&
		(value as { type?: unknown }).type === "session" &&
		typeof (value as { id?: unknown }).id === "string"
	);
}

export function stripBom(text: string): string {
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses one line; `undefined` for blank lines, `null` for lines that are not a JSON object. */
export function parseLine(line: string): FileEntry | null | undefined {
	if (line.trim() === "") return undefined;
	try {
		const value: unknown = JSON.parse(line);
		return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as FileEntry) : null;
	} catch {
		return null;
	}
}

/** Every parseable line of `content` (header included, no header check); blank and malformed lines skipped. */
export function parseSessionEntries(content: string): FileEntry[] {
	const entries: FileEntry[] = [];
	for (const line of stripBom(content).split("\n")) {
		const entry = parseLine(line);
		if (entry) entries.push(entry);
	}
	return entries;
}

/** Non-header entries of a loaded file. */
export function entriesOf(fileEntries: readonly FileEntry[]): SessionEntry[] {
	return fileEntries.filter((entry): entry is SessionEntry => !isSessionHeader(entry));
}

/** The `ms` epoch of an ISO entry timestamp (message timestamps are numbers, entry timestamps strings). */
export function entryTimeMs(entry: { timestamp: string }): number {
	return Date.parse(entry.timestamp);
}
