import { existsSync, statSync } from "node:fs";
import { isSessionHeader, parseLine } from "./format.js";
import { SessionHeaderScanLimitError, scanLines } from "./line-reader.js";
import type { FileEntry, SessionHeader } from "./types.js";

export const MAX_SESSION_HEADER_SCAN_BYTES = 1024 * 1024;
const HEADER_CHUNK_BYTES = 4096;

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
}

/** Reads a whole session file tolerantly: blank lines skipped, malformed lines kept aside, never throws on content. */
export function loadSessionFile(path: string): LoadedSessionFile {
	if (!existsSync(path)) {
		return { exists: false, entries: [], rawLines: [], unterminated: false, size: 0, isSession: false };
	}
	const entries: FileEntry[] = [];
	const rawLines: RawLine[] = [];
	let lineNumber = 0;
	const scan = scanLines(path, (line) => {
		lineNumber++;
		const entry = parseLine(line);
		if (entry === undefined) return undefined;
		if (entry === null) rawLines.push({ after: entries.length, line: lineNumber, text: line });
		else entries.push(entry);
		return undefined;
	});
	const isSession = entries.length === 0 || isSessionHeader(entries[0]);
	return {
		exists: true,
		entries: isSession ? entries : [],
		rawLines: isSession ? rawLines : [],
		unterminated: !scan.endsWithNewline,
		size: scan.bytesRead,
		isSession,
	};
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
