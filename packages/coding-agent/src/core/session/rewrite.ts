import { constants, copyFileSync, existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import {
	CURRENT_SESSION_VERSION,
	entriesOf,
	isSessionHeader,
	parseLine,
	parseSessionEntries,
	serializeEntry,
} from "./format.js";
import { type LoadedSessionFile, loadSessionFile, type RawLine } from "./loader.js";
import { sessionFileName } from "./location.js";
import { migrateSessionEntries } from "./migrate.js";
import {
	nodeSessionFileSystem,
	replaceSessionFile,
	type SessionFileSystem,
	SessionFileWriter,
	terminateLastLine,
} from "./storage.js";
import type { FileEntry, SessionHeader } from "./types.js";

/**
 * Persists a migration: a byte-identical `<name>.v<old>.bak` first (kept if one exists), then an atomic
 * replace whose content keeps every unparseable line in its original position. Returns the new size.
 */
export function rewriteMigratedFile(
	path: string,
	oldVersion: number,
	entries: readonly FileEntry[],
	rawLines: readonly RawLine[],
	fs: SessionFileSystem = nodeSessionFileSystem,
): number {
	const backup = `${path.replace(/\.jsonl$/, "")}.v${oldVersion}.bak`;
	if (!existsSync(backup)) copyFileSync(path, backup, constants.COPYFILE_EXCL);
	let content = "";
	let raw = 0;
	for (let i = 0; i <= entries.length; i++) {
		while (raw < rawLines.length && rawLines[raw]!.after === i) content += `${rawLines[raw++]!.text}\n`;
		if (i < entries.length) content += serializeEntry(entries[i]!);
	}
	replaceSessionFile(path, content, fs);
	return Buffer.byteLength(content);
}

/**
 * Makes a loaded file ready for appends: an older version is rewritten migrated, a last line that lost
 * its newline (crash mid-append) is ended so the next entry gets its own line. Returns the size it leaves.
 */
export function prepareForAppends(
	path: string,
	loaded: LoadedSessionFile,
	version: number,
	fs: SessionFileSystem = nodeSessionFileSystem,
): number {
	if (version < CURRENT_SESSION_VERSION)
		return rewriteMigratedFile(path, version, loaded.entries, loaded.rawLines, fs);
	if (!loaded.unterminated) return loaded.size;
	terminateLastLine(path, fs);
	return loaded.size + 1;
}

/**
 * Writes a copy of a whole session (every branch, migrated first) under a new header for `targetCwd`,
 * with exclusive create. Returns the new file's path.
 */
export function writeForkedSessionFile(
	sourcePath: string,
	targetCwd: string,
	sessionDir: string,
	id: string,
	fs: SessionFileSystem = nodeSessionFileSystem,
): string {
	const loaded = loadSessionFile(sourcePath);
	if (loaded.exists && !loaded.isSession) throw new Error(`Cannot fork: source session has no header: ${sourcePath}`);
	if (loaded.entries.length === 0)
		throw new Error(`Cannot fork: source session file is empty or invalid: ${sourcePath}`);
	migrateSessionEntries(loaded.entries);
	const header: SessionHeader = {
		type: "session",
		version: CURRENT_SESSION_VERSION,
		id,
		timestamp: new Date().toISOString(),
		cwd: targetCwd,
		parentSession: sourcePath,
	};
	const path = join(sessionDir, sessionFileName(header.timestamp, id));
	const writer = new SessionFileWriter(path, "important", fs);
	writer.createExclusive([header, ...entriesOf(loaded.entries)].map(serializeEntry));
	return path;
}

/**
 * Recovery for a file whose header line is torn but whose later lines are entries: writes a NEW file
 * (`<name>-repaired.jsonl`) with a header synthesized from the file name (`<timestamp>_<id>.jsonl`) and
 * the caller's cwd, followed by every parseable entry. The damaged original is never touched. Returns
 * the new path, or undefined when the file is not repairable this way.
 */
export function repairTornHeader(
	path: string,
	cwd: string,
	fs: SessionFileSystem = nodeSessionFileSystem,
): string | undefined {
	if (!existsSync(path)) return undefined;
	const lines = readFileSync(path, "utf8").split("\n");
	const entries = parseSessionEntries(lines.slice(1).join("\n"));
	if (parseLine(lines[0] ?? "") || entries.length === 0 || entries.some(isSessionHeader)) return undefined;
	const match = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z_(.+)\.jsonl$/.exec(basename(path));
	if (!match) return undefined;
	const header: SessionHeader = {
		type: "session",
		version: CURRENT_SESSION_VERSION,
		id: match[5]!,
		timestamp: `${match[1]}:${match[2]}:${match[3]}.${match[4]}Z`,
		cwd,
	};
	migrateSessionEntries([header, ...entries]);
	const target = path.replace(/\.jsonl$/, "-repaired.jsonl");
	const writer = new SessionFileWriter(target, "important", fs);
	writer.createExclusive([header, ...entries].map(serializeEntry));
	return target;
}
