import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { ABORTED_MESSAGE } from "../types.js";
import { findGitRoot, type IgnoreFile, isIgnored, loadDirectoryIgnores } from "./ignore-rules.js";

export interface WalkEntry {
	/** Relative to the walk root, `/`-separated. */
	path: string;
	absolutePath: string;
	isDirectory: boolean;
	isFile: boolean;
}

export interface WalkOptions {
	/** Honour `.gitignore` files (ripgrep only does inside git repositories; fd everywhere here). */
	gitignore: boolean;
	/** Tool-specific ignore file honoured besides `.ignore` (`.rgignore`, `.fdignore`). */
	toolIgnoreFile: string;
	signal?: AbortSignal;
}

function ancestorsOf(directory: string): string[] {
	const chain: string[] = [];
	let current = dirname(directory);
	while (current !== directory) {
		chain.unshift(current);
		directory = current;
		current = dirname(current);
	}
	return chain;
}

/**
 * Walks a tree the way ripgrep and fd do by default: hidden entries included, `.git` skipped,
 * ignore files of the root's ancestors and of every walked directory honoured, symlinks listed but
 * never followed (so link loops cannot trap the walk). Entries come in sorted order.
 */
export async function* walkTree(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
	const names = [".ignore", options.toolIgnoreFile, ...(options.gitignore ? [".gitignore"] : [])];
	const ignoreRoot = findGitRoot(root);
	const inherited: IgnoreFile[] = [];
	for (const ancestor of ancestorsOf(root)) {
		// Only ancestors inside the repository contribute git rules; .ignore files apply anywhere.
		const inRepo = ignoreRoot !== undefined && ancestor.length >= ignoreRoot.length;
		inherited.push(...loadDirectoryIgnores(ancestor, inRepo || !ignoreRoot ? names : names.slice(0, 2)));
	}
	const stack: { directory: string; ignores: IgnoreFile[] }[] = [{ directory: root, ignores: inherited }];
	while (stack.length > 0) {
		if (options.signal?.aborted) throw new Error(ABORTED_MESSAGE);
		const { directory, ignores: parentIgnores } = stack.pop() as { directory: string; ignores: IgnoreFile[] };
		const ignores = [...parentIgnores, ...loadDirectoryIgnores(directory, names)];
		let entries: Dirent[];
		try {
			entries = await readdir(directory, { withFileTypes: true });
		} catch {
			continue;
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subdirectories: string[] = [];
		for (const entry of entries) {
			if (entry.name === ".git") continue;
			const absolutePath = join(directory, entry.name);
			const isDirectory = entry.isDirectory();
			if (isIgnored(ignores, absolutePath, isDirectory)) continue;
			const path = relative(root, absolutePath).split(sep).join("/");
			yield { path, absolutePath, isDirectory, isFile: entry.isFile() };
			if (isDirectory) subdirectories.push(absolutePath);
		}
		for (let i = subdirectories.length - 1; i >= 0; i--) {
			stack.push({ directory: subdirectories[i] as string, ignores });
		}
	}
}
