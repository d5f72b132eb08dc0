import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { ABORTED_MESSAGE } from "../types.js";
import { createPathGlob } from "./glob.js";
import type { GrepCollector } from "./grep-output.js";
import { findGitRoot } from "./ignore-rules.js";
import { walkTree } from "./walk.js";

export interface GrepQuery {
	pattern: string;
	ignoreCase: boolean;
	literal: boolean;
	context: number;
	glob?: string;
}

/** Compiles the search pattern; an invalid regex fails like ripgrep's parse error. */
function compilePattern(query: GrepQuery): RegExp {
	const source = query.literal ? query.pattern.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&") : query.pattern;
	try {
		return new RegExp(source, query.ignoreCase ? "iu" : "u");
	} catch (error) {
		throw new Error(`regex parse error:\n    ${query.pattern}\nerror: ${(error as Error).message}`);
	}
}

/** Searches one file's lines, feeding matches and context to the collector; false = stop. */
function searchContent(text: string, path: string, regex: RegExp, context: number, collector: GrepCollector): boolean {
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	const strip = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);
	let emittedUpTo = -1;
	for (let i = 0; i < lines.length; i++) {
		if (!regex.test(strip(lines[i] ?? ""))) continue;
		for (let c = Math.max(emittedUpTo + 1, i - context); c < i; c++) {
			if (!collector.add({ kind: "context", path, lineNumber: c + 1, text: strip(lines[c] ?? "") })) return false;
		}
		if (!collector.add({ kind: "match", path, lineNumber: i + 1, text: strip(lines[i] ?? "") })) return false;
		emittedUpTo = i;
		// Trailing context, stopping where the next match takes over.
		for (let c = i + 1; c <= Math.min(lines.length - 1, i + context); c++) {
			if (regex.test(strip(lines[c] ?? ""))) break;
			if (!collector.add({ kind: "context", path, lineNumber: c + 1, text: strip(lines[c] ?? "") })) return false;
			emittedUpTo = c;
		}
	}
	return true;
}

/** Files searched between yields to the event loop. */
const YIELD_EVERY = 64;

/** Files containing a NUL byte are binary and skipped, as ripgrep does during recursive search. */
function isBinary(bytes: Buffer): boolean {
	return bytes.includes(0);
}

/** The built-in grep: same output as ripgrep for the default ignore and hidden-file rules. */
export async function nodeGrep(
	searchPath: string,
	isDirectory: boolean,
	query: GrepQuery,
	collector: GrepCollector,
	signal: AbortSignal | undefined,
): Promise<void> {
	const regex = compilePattern(query);
	if (!isDirectory) {
		const bytes = await readFile(searchPath);
		searchContent(bytes.toString("utf8"), basename(searchPath), regex, query.context, collector);
		return;
	}
	const globFilter = query.glob ? createGlobFilter(query.glob) : undefined;
	const walk = walkTree(searchPath, {
		gitignore: findGitRoot(searchPath) !== undefined,
		toolIgnoreFile: ".rgignore",
		...(signal ? { signal } : {}),
	});
	let searched = 0;
	for await (const entry of walk) {
		if (!entry.isFile || (globFilter && !globFilter(entry.path))) continue;
		// Synchronous reads of (mostly small) files beat a thread-pool round trip per file; yielding
		// regularly keeps abort and UI updates responsive.
		if (++searched % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		let bytes: Buffer;
		try {
			bytes = readFileSync(entry.absolutePath);
		} catch {
			continue;
		}
		if (isBinary(bytes)) continue;
		if (!searchContent(bytes.toString("utf8"), entry.path, regex, query.context, collector)) return;
	}
}

/** ripgrep's `--glob`: a leading `!` excludes instead of selecting. */
function createGlobFilter(glob: string): (path: string) => boolean {
	const negated = glob.startsWith("!");
	const matches = createPathGlob(negated ? glob.slice(1) : glob);
	return negated ? (path) => !matches(path) : matches;
}
