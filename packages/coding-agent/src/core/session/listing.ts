import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSessionHeader, parseLine } from "./format.js";
import { scanLines } from "./line-reader.js";
import { readSessionHeader } from "./loader.js";
import { getSessionsRoot, samePath } from "./location.js";
import { contentText } from "./messages.js";
import type { SessionInfo } from "./types.js";

/** `(loaded, total, partialSessions?)`; the partial list is sorted and sent on the first, every Nth and last file. */
export type ListProgress = (loaded: number, total: number, partialSessions?: SessionInfo[]) => void;

function jsonlFiles(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => join(dir, name));
	} catch {
		return [];
	}
}

function mtimeOf(path: string): number {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return 0;
	}
}

function cwdMatches(headerCwd: unknown, cwd: string | undefined): boolean {
	if (cwd === undefined) return true;
	return typeof headerCwd === "string" && headerCwd !== "" && samePath(headerCwd, cwd);
}

/** Newest (by file mtime) valid session in `dir` whose header cwd equals `cwd` (when given), else null. */
export function findMostRecentSession(dir: string, cwd?: string): string | null {
	const files = jsonlFiles(dir)
		.map((path) => ({ path, mtime: mtimeOf(path) }))
		.sort((a, b) => b.mtime - a.mtime);
	for (const { path } of files) {
		const header = readSessionHeader(path);
		if (header && cwdMatches(header.cwd, cwd)) return path;
	}
	return null;
}

/** The session in `dir` whose header id is exactly `id` (header scan only). */
export function findSessionById(dir: string, id: string, cwd?: string): string | undefined {
	for (const path of jsonlFiles(dir).sort()) {
		const header = readSessionHeader(path);
		if (header?.id === id && cwdMatches(header.cwd, cwd)) return path;
	}
	return undefined;
}

/** Summary of one session file, streamed line by line; `null` when the file is not a session. */
export function readSessionInfo(path: string): SessionInfo | null {
	let header: Record<string, unknown> | undefined;
	let notSession = false;
	let name: string | undefined;
	let messageCount = 0;
	let firstMessage = "";
	let lastActivity: number | undefined;
	const texts: string[] = [];
	try {
		scanLines(path, (line) => {
			const entry = parseLine(line) as Record<string, unknown> | null | undefined;
			if (!entry) return undefined;
			if (!header) {
				if (!isSessionHeader(entry)) {
					notSession = true;
					return false;
				}
				header = entry as unknown as Record<string, unknown>;
				return undefined;
			}
			if (entry.type === "session_info") {
				const value = typeof entry.name === "string" ? entry.name.trim() : "";
				name = value === "" ? undefined : value;
			}
			if (entry.type !== "message") return undefined;
			messageCount++;
			const message = entry.message as { role?: string; content?: unknown; timestamp?: unknown } | undefined;
			if (message?.role !== "user" && message?.role !== "assistant") return undefined;
			const time = typeof message.timestamp === "number" ? message.timestamp : Date.parse(String(entry.timestamp));
			if (!Number.isNaN(time)) lastActivity = Math.max(lastActivity ?? time, time);
			const text = contentText(message.content, " ");
			if (text === "") return undefined;
			texts.push(text);
			if (message.role === "user" && firstMessage === "") firstMessage = text;
			return undefined;
		});
	} catch {
		return null;
	}
	if (notSession || !header) return null;
	const created = new Date(String(header.timestamp));
	let modified = lastActivity !== undefined ? new Date(lastActivity) : created;
	if (Number.isNaN(modified.getTime())) modified = new Date(mtimeOf(path));
	const info: SessionInfo = {
		path,
		id: String(header.id),
		cwd: typeof header.cwd === "string" ? header.cwd : "",
		created,
		modified,
		messageCount,
		firstMessage: firstMessage || "(no messages)",
		allMessagesText: texts.join(" "),
	};
	if (name !== undefined) info.name = name;
	if (typeof header.parentSession === "string") info.parentSessionPath = header.parentSession;
	return info;
}

function byModifiedDesc(a: SessionInfo, b: SessionInfo): number {
	return b.modified.getTime() - a.modified.getTime();
}

/** Reads infos one file at a time, yielding between files so an abort is honoured promptly. */
async function collectInfos(
	files: readonly string[],
	accept: (info: SessionInfo) => boolean,
	progressEvery: number,
	onProgress?: ListProgress,
	signal?: AbortSignal,
): Promise<SessionInfo[]> {
	const sessions: SessionInfo[] = [];
	for (let i = 0; i < files.length; i++) {
		signal?.throwIfAborted();
		await new Promise<void>((resolve) => setImmediate(resolve));
		signal?.throwIfAborted();
		const info = readSessionInfo(files[i]!);
		if (info && accept(info)) sessions.push(info);
		const loaded = i + 1;
		if (onProgress) {
			const withList = loaded === 1 || loaded % progressEvery === 0 || loaded === files.length;
			onProgress(loaded, files.length, withList ? [...sessions].sort(byModifiedDesc) : undefined);
		}
	}
	return sessions.sort(byModifiedDesc);
}

/** Sessions of one directory whose header cwd equals `cwd` (always filtered: the dir encoding is lossy). */
export function listSessions(
	dir: string,
	cwd: string,
	onProgress?: ListProgress,
	signal?: AbortSignal,
): Promise<SessionInfo[]> {
	const files = jsonlFiles(dir).sort().reverse();
	return collectInfos(files, (info) => cwdMatches(info.cwd, cwd), 10, onProgress, signal);
}

/** Every session under `<agentDir>/sessions/*`, or every session in one custom dir, newest activity first. */
export function listAllSessions(
	where: { sessionDir?: string; agentDir: string },
	onProgress?: ListProgress,
	signal?: AbortSignal,
): Promise<SessionInfo[]> {
	let files: string[];
	if (where.sessionDir) files = jsonlFiles(where.sessionDir);
	else {
		const root = getSessionsRoot(where.agentDir);
		let dirs: string[] = [];
		try {
			dirs = readdirSync(root).map((name) => join(root, name));
		} catch {
			dirs = [];
		}
		files = dirs.flatMap(jsonlFiles);
	}
	const ordered = files
		.map((path) => ({ path, mtime: mtimeOf(path) }))
		.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path))
		.map((file) => file.path);
	return collectInfos(ordered, () => true, 100, onProgress, signal);
}
