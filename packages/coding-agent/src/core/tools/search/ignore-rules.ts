import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { globToRegexSource } from "./glob.js";

/** One compiled line of an ignore file. */
interface IgnoreRule {
	regex: RegExp;
	negated: boolean;
	directoryOnly: boolean;
}

/** The rules of one ignore file, relative to the directory that holds it. */
export interface IgnoreFile {
	base: string;
	rules: IgnoreRule[];
}

/** Compiles gitignore syntax (comments, `!`, trailing `/`, anchoring by an inner `/`, `**`). */
export function parseIgnoreFile(base: string, text: string): IgnoreFile {
	const rules: IgnoreRule[] = [];
	for (const rawLine of text.split(/\r?\n/)) {
		let line = rawLine.replace(/(?<!\\)\s+$/, "");
		if (line === "" || line.startsWith("#")) continue;
		let negated = false;
		if (line.startsWith("!")) {
			negated = true;
			line = line.slice(1);
		} else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
		let directoryOnly = false;
		if (line.endsWith("/")) {
			directoryOnly = true;
			line = line.slice(0, -1);
		}
		if (line === "") continue;
		const anchored = line.includes("/");
		const glob = line.replace(/^\//, "");
		const source = globToRegexSource(glob);
		const regex = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
		rules.push({ regex, negated, directoryOnly });
	}
	return { base, rules };
}

/** Reads the ignore files of one directory (`.gitignore` only when git rules apply). */
export function loadDirectoryIgnores(directory: string, names: readonly string[]): IgnoreFile[] {
	const files: IgnoreFile[] = [];
	for (const name of names) {
		const path = join(directory, name);
		if (!existsSync(path)) continue;
		try {
			files.push(parseIgnoreFile(directory, readFileSync(path, "utf8")));
		} catch {
			// An unreadable ignore file is skipped, as ripgrep and fd do.
		}
	}
	return files;
}

/**
 * Decides whether an entry is ignored: the last matching rule of the innermost files wins, as
 * in git. Parents that are ignored are never walked, so their contents need no check.
 */
export function isIgnored(files: readonly IgnoreFile[], absolutePath: string, isDirectory: boolean): boolean {
	let ignored = false;
	for (const file of files) {
		const path = relative(file.base, absolutePath).split(sep).join("/");
		if (path.startsWith("..")) continue;
		for (const rule of file.rules) {
			if (rule.directoryOnly && !isDirectory) continue;
			if (rule.regex.test(path)) ignored = !rule.negated;
		}
	}
	return ignored;
}

/** The root of the git repository containing `directory` (a `.git` in it or an ancestor). */
export function findGitRoot(directory: string): string | undefined {
	let current = directory;
	for (;;) {
		if (existsSync(join(current, ".git"))) return current;
		const parent = dirname(current);
		if (parent === current) return undefined;
		current = parent;
	}
}
