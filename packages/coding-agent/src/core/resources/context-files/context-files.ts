import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { stripBom } from "../../../config/fs/json-text.js";
import { errorMessage } from "../../errors.js";
import type { ResourceDiagnostic } from "../types.js";
import { nestedWorktreeOf } from "./git-worktree.js";

/** Per directory, the first of these that is a readable regular file is its context file. */
export const CONTEXT_FILE_CANDIDATES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

export interface ContextFile {
	path: string;
	content: string;
}

function realOrResolved(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

function isRegularFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** The context file of one directory; unreadable candidates are reported and skipped. */
function contextFileOf(dir: string, diagnostics: ResourceDiagnostic[]): ContextFile | undefined {
	for (const name of CONTEXT_FILE_CANDIDATES) {
		const path = join(dir, name);
		if (!isRegularFile(path)) continue;
		try {
			return { path, content: stripBom(readFileSync(path, "utf8")) };
		} catch (error) {
			diagnostics.push({ type: "warning", message: `Could not read ${path}: ${errorMessage(error)}`, path });
		}
	}
	return undefined;
}

/**
 * Project instructions: the agent dir's file first, then the cwd's ancestors from the root down
 * to the cwd (nearest last). A file reached twice loads once; in a nested linked git worktree the
 * main checkout's same-named file is skipped when the worktree root has its own. Unreadable
 * candidates are reported as diagnostics.
 */
export function discoverContextFiles(options: { cwd: string; agentDir: string }): {
	agentsFiles: ContextFile[];
	diagnostics: ResourceDiagnostic[];
} {
	const diagnostics: ResourceDiagnostic[] = [];
	const files: ContextFile[] = [];
	const seen = new Set<string>();
	const add = (file: ContextFile | undefined) => {
		if (!file) return;
		const key = resolve(file.path);
		if (seen.has(key)) return;
		seen.add(key);
		files.push(file);
	};
	add(contextFileOf(resolve(options.agentDir), diagnostics));

	const ancestors: string[] = [];
	for (let dir = resolve(options.cwd); ; dir = dirname(dir)) {
		ancestors.unshift(dir);
		if (dirname(dir) === dir) break;
	}
	const found = ancestors.map((dir) => ({ dir, file: contextFileOf(dir, diagnostics) }));

	const worktree = nestedWorktreeOf(options.cwd);
	let skipped: string | undefined;
	if (worktree) {
		const own = found.find((entry) => realOrResolved(entry.dir) === worktree.worktreeRoot)?.file;
		if (own) skipped = join(worktree.mainRoot, basename(own.path));
	}
	for (const { dir, file } of found) {
		if (file && skipped && join(realOrResolved(dir), basename(file.path)) === skipped) continue;
		add(file);
	}
	return { agentsFiles: files, diagnostics };
}

/** The context files of `discoverContextFiles` without its diagnostics: Pi's function and shape. */
export function loadProjectContextFiles(options: { cwd: string; agentDir: string }): ContextFile[] {
	return discoverContextFiles(options).agentsFiles;
}
