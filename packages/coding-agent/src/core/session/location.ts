import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expandTilde, getAgentDir } from "../../config/paths.js";

/** Absolute form of a cwd: tilde expanded, `file://` URLs converted, symlinks left alone. */
export function resolveCwd(cwd: string): string {
	const path = cwd.startsWith("file://") ? fileURLToPath(cwd) : expandTilde(cwd);
	return resolve(path);
}

/** The directory name of a cwd under `<agentDir>/sessions/`, e.g. `/home/a/b` -> `--home-a-b--`. */
export function encodeCwd(cwd: string): string {
	const absolute = /^[A-Za-z]:[\\/]/.test(cwd) ? cwd : resolveCwd(cwd);
	const trimmed = absolute.replace(/^[/\\]/, "");
	return `--${trimmed.replace(/[/\\:]/g, "-")}--`;
}

export function getSessionsRoot(agentDir: string = getAgentDir()): string {
	return join(agentDir, "sessions");
}

/** Default session dir of a cwd, without touching the disk. */
export function getDefaultSessionDirPath(cwd: string, agentDir?: string): string {
	return join(getSessionsRoot(agentDir), encodeCwd(cwd));
}

/** Default session dir of a cwd, created if missing. */
export function getDefaultSessionDir(cwd: string, agentDir?: string): string {
	const dir = getDefaultSessionDirPath(cwd, agentDir);
	mkdirSync(dir, { recursive: true });
	return dir;
}

/** `<ISO time with ':' and '.' replaced by '-'>_<id>.jsonl`. */
export function sessionFileName(headerTimestamp: string, sessionId: string): string {
	return `${headerTimestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/** Path equality for cwd filters: resolved, and case-insensitive on Windows. */
export function samePath(a: string, b: string): boolean {
	const left = resolve(a);
	const right = resolve(b);
	return process.platform === "win32" ? left.toLowerCase() === right.toLowerCase() : left === right;
}
