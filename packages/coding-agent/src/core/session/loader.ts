import { existsSync, statSync } from "node:fs";
import { type DeferredBodies, deferMessageLine, dropDeferredBody, readDeferredBody } from "./deferred-body.js";
import { CURRENT_SESSION_VERSION, isSessionHeader, parseLine } from "./format.js";
import { SessionHeaderScanLimitError, scanLines } from "./line-reader.js";
import type { FileEntry, SessionEntry, SessionHeader } from "./types.js";

export const MAX_SESSION_HEADER_SCAN_BYTES = 1024 * 1024;
const HEADER_CHUNK_BYTES = 4096;
/** Parsed lines at the end of a file whose bodies a deferred load reads at once: the leaf and a screen of history. */
export const EAGER_TAIL_ENTRIES = 64;

/** A line that did not parse, kept verbatim so rewrites can carry it through in place. */
export interface RawLine {
	/** Number of parsed entries that precede this line in the file. */
	after: number;
	/** 1-based line number in the file. */
	line: number;
	text: string;
}

export interface LoadedSessionFile {
	exists: boolean;
	/** Header first when `isSession`; empty when the file is not a session. */
	entries: FileEntry[];
	rawLines: RawLine[];
	/** True when the file ended with a fragment after the last LF (torn or unterminated last line). */
	unterminated: boolean;
	/** Size in bytes at load time. */
	size: number;
	/** False for a non-empty file whose first parsed line is not a header. */
	isSession: boolean;
	/** Set when bodies were deferred (`deferBodies` on a current-version session): how many are unread. */
	deferred?: DeferredBodies;
}

export interface LoadSessionOptions {
	/**
	 * Read message bodies on first use, except those of the last `EAGER_TAIL_ENTRIES` parsed lines
	 * (docs/design/session-runtime.md#opening-a-long-session). Only a current-version session defers.
	 */
	deferBodies?: boolean;
}

/** The warning for lines a load skipped; `lines` ascending. */
export function unparseableLinesWarning(path: string, lines: readonly number[]): string {
	return `Skipped ${lines.length} unparseable line(s) in ${path} (line ${lines.join(", ")})`;
}

/** Reads a whole session file tolerantly: blank lines skipped, malformed lines kept aside, never throws on content. */
export function loadSessionFile(path: string, options: LoadSessionOptions = {}): LoadedSessionFile {
	if (!existsSync(path)) {
		return { exists: false, entries: [], rawLines: [], unterminated: false, size: 0, isSession: false };
	}
	const entries: FileEntry[] = [];
	const rawLines: RawLine[] = [];
	let lineNumber = 0;
	// Decided by the header (the first parsed line): a file to migrate, or no session at all, is read whole.
	let deferred: DeferredBodies | undefined;
	const scan = scanLines(path, (line) => {
		lineNumber++;
		const entry = (deferred && deferMessageLine(line, lineNumber, deferred)) ?? parseLine(line);
		if (entry === undefined) return undefined;
		if (entry === null) rawLines.push({ after: entries.length, line: lineNumber, text: line });
		else {
			if (entries.length === 0 && options.deferBodies && isCurrentHeader(entry)) deferred = { unread: 0 };
			entries.push(entry);
		}
		return undefined;
	});
	const isSession = entries.length === 0 || isSessionHeader(entries[0]);
	if (deferred) readTail(entries, rawLines);
	return {
		exists: true,
		entries: isSession ? entries : [],
		rawLines: isSession ? rawLines : [],
		unterminated: !scan.endsWithNewline,
		size: scan.bytesRead,
		isSession,
		...(deferred ? { deferred } : {}),
	};
}

function isCurrentHeader(entry: FileEntry): boolean {
	return isSessionHeader(entry) && entry.version === CURRENT_SESSION_VERSION;
}

/**
 * Reads the bodies of the last `EAGER_TAIL_ENTRIES` parsed lines; one that does not parse becomes a
 * skipped line, as a full parse would have made it (a torn last line ending in `}}`, say).
 */
function readTail(entries: FileEntry[], rawLines: RawLine[]): void {
	const failed: number[] = [];
	for (let i = entries.length - 1; i >= Math.max(0, entries.length - EAGER_TAIL_ENTRIES); i--) {
		if (!readDeferredBody(entries[i] as SessionEntry)) failed.push(i);
	}
	if (failed.length === 0) return;
	failed.reverse();
	const before = (index: number) => failed.filter((at) => at < index).length;
	for (const raw of rawLines) raw.after -= before(raw.after);
	for (const index of failed) {
		const { line, text } = dropDeferredBody(entries[index]!)!;
		rawLines.push({ after: index - before(index), line, text });
	}
	rawLines.sort((a, b) => a.line - b.line);
	const dropped = new Set(failed);
	let kept = 0;
	for (let i = 0; i < entries.length; i++) if (!dropped.has(i)) entries[kept++] = entries[i]!;
	entries.length = kept;
}

/** Header plus entries of a session file; `[]` when missing or not a session. Never writes. */
export function loadEntriesFromFile(path: string): FileEntry[] {
	return loadSessionFile(path).entries;
}

/** Parses lines appended to a file after `offset` (another writer's appends). */
export function loadAppendedEntries(
	path: string,
	offset: number,
): { entries: FileEntry[]; bytesRead: number; endsWithNewline: boolean } {
	const entries: FileEntry[] = [];
	const scan = scanLines(
		path,
		(line) => {
			const entry = parseLine(line);
			if (entry) entries.push(entry);
			return undefined;
		},
		{ offset },
	);
	return { entries, bytesRead: scan.bytesRead, endsWithNewline: scan.endsWithNewline };
}

/**
 * Reads only the first parsed line. Returns the header, or `null` when the file is unreadable or
 * its first parsed line is something else. Throws `SessionHeaderScanLimitError` past 1 MiB.
 */
export function readSessionHeaderStrict(path: string): SessionHeader | null {
	let found: FileEntry | null = null;
	try {
		scanLines(
			path,
			(line) => {
				const entry = parseLine(line);
				if (!entry) return undefined;
				found = entry;
				return false;
			},
			{ chunkBytes: HEADER_CHUNK_BYTES, maxBytes: MAX_SESSION_HEADER_SCAN_BYTES },
		);
	} catch (error) {
		if (error instanceof SessionHeaderScanLimitError) throw error;
		return null;
	}
	return isSessionHeader(found) ? found : null;
}

/** Best-effort header discovery for listings: any failure, including the scan limit, means "not a session". */
export function readSessionHeader(path: string): SessionHeader | null {
	try {
		return readSessionHeaderStrict(path);
	} catch {
		return null;
	}
}

export function fileSize(path: string): number {
	return statSync(path).size;
}
