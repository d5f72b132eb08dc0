import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ENV_SESSION_DIR } from "../../config/app-identity.js";
import { expandTilde, getAgentDir } from "../../config/paths.js";
import { makeSessionDir } from "./storage.js";

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
	makeSessionDir(dir);
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

export interface SessionDirSources {
	cwd: string;
	/** `--session-dir` (relative to the process cwd). */
	cliSessionDir?: string;
	env?: NodeJS.ProcessEnv;
	/** `sessionDir` from the user settings file. */
	userSetting?: string;
	/** `sessionDir` from the project settings file. */
	projectSetting?: string;
	/** A saved trust decision (or `--approve`) for the project; untrusted projects cannot redirect sessions. */
	projectTrusted: boolean;
}

/**
 * The session directory for this process (first match wins: CLI, environment, settings), or undefined
 * for the per-cwd default. A project setting counts only once the project is trusted.
 */
export function resolveSessionDir(sources: SessionDirSources): { dir: string | undefined; warnings: string[] } {
	const warnings: string[] = [];
	if (sources.cliSessionDir) return { dir: resolve(expandTilde(sources.cliSessionDir)), warnings };
	const fromEnv = (sources.env ?? process.env)[ENV_SESSION_DIR];
	if (fromEnv && fromEnv.trim() !== "") return { dir: resolve(expandTilde(fromEnv)), warnings };
	let setting = sources.userSetting;
	if (sources.projectSetting) {
		if (sources.projectTrusted) setting = sources.projectSetting;
		else warnings.push("Project sessionDir ignored until the project is trusted");
	}
	return { dir: setting ? resolve(sources.cwd, expandTilde(setting)) : undefined, warnings };
}
