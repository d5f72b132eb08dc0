import { basename, dirname, relative, sep } from "node:path";
import { expandTilde } from "../../../config/paths.js";
import { pathGlobToRegExp } from "../../tools/search/glob.js";

/** `!x`, `+x`, `-x` and anything with `*` or `?` filters files; other entries name files. */
export function isPatternEntry(entry: string): boolean {
	return /^[!+-]/.test(entry) || entry.includes("*") || entry.includes("?");
}

function toPosix(path: string): string {
	return path.split(sep).join("/");
}

/** The names a file can be matched by: relative path, base name, absolute path (and its skill dir). */
function matchTargets(file: string, baseDir: string): { globTargets: string[]; exactTargets: string[] } {
	const relativePath = toPosix(relative(baseDir, file));
	const absolute = toPosix(file);
	const globTargets = [relativePath, basename(file), absolute];
	const exactTargets = [relativePath, absolute];
	if (basename(file) === "SKILL.md") {
		const skillDir = dirname(file);
		const skillRelative = toPosix(relative(baseDir, skillDir));
		globTargets.push(skillRelative, basename(skillDir), toPosix(skillDir));
		exactTargets.push(skillRelative, toPosix(skillDir));
	}
	return { globTargets, exactTargets };
}

function matchesGlob(pattern: string, file: string, baseDir: string): boolean {
	const regex = pathGlobToRegExp(toPosix(expandTilde(pattern)));
	return matchTargets(file, baseDir).globTargets.some((target) => regex.test(target));
}

function matchesExact(pattern: string, file: string, baseDir: string): boolean {
	const wanted = toPosix(expandTilde(pattern)).replace(/^\.\//, "");
	return matchTargets(file, baseDir).exactTargets.includes(wanted);
}

/**
 * The enabled flag of each collected file under a layer's pattern entries: plain globs keep only
 * matches (when any exist), `!glob` removes, `+exact` adds back, `-exact` removes again.
 */
export function applyPatterns(files: readonly string[], patterns: readonly string[], baseDir: string): Set<string> {
	const includes = patterns.filter((pattern) => !/^[!+-]/.test(pattern));
	const excludes = patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1));
	const forceIncludes = patterns.filter((pattern) => pattern.startsWith("+")).map((pattern) => pattern.slice(1));
	const forceExcludes = patterns.filter((pattern) => pattern.startsWith("-")).map((pattern) => pattern.slice(1));
	const enabled = new Set<string>();
	for (const file of files) {
		let on = includes.length === 0 || includes.some((pattern) => matchesGlob(pattern, file, baseDir));
		if (on && excludes.some((pattern) => matchesGlob(pattern, file, baseDir))) on = false;
		if (forceIncludes.some((pattern) => matchesExact(pattern, file, baseDir))) on = true;
		if (forceExcludes.some((pattern) => matchesExact(pattern, file, baseDir))) on = false;
		if (on) enabled.add(file);
	}
	return enabled;
}

/**
 * Delta mode (`autoload: false`): only files a pattern names get a decision; plain and `+`
 * entries enable, `!` and `-` entries disable, and the last matching entry decides.
 */
export function deltaDecisions(
	files: readonly string[],
	patterns: readonly string[],
	baseDir: string,
): Map<string, boolean> {
	const decisions = new Map<string, boolean>();
	for (const file of files) {
		for (const pattern of patterns) {
			const prefix = pattern[0];
			const body = /^[!+-]/.test(pattern) ? pattern.slice(1) : pattern;
			const matches =
				prefix === "+" || prefix === "-" ? matchesExact(body, file, baseDir) : matchesGlob(body, file, baseDir);
			if (matches) decisions.set(file, prefix !== "!" && prefix !== "-");
		}
	}
	return decisions;
}

/** Whether an auto-discovered file stays enabled under a layer's `!`/`+`/`-` override entries. */
export function isEnabledByOverrides(file: string, patterns: readonly string[], baseDir: string): boolean {
	let enabled = true;
	for (const pattern of patterns) {
		if (pattern.startsWith("!") && matchesGlob(pattern.slice(1), file, baseDir)) enabled = false;
	}
	for (const pattern of patterns) {
		if (pattern.startsWith("+") && matchesExact(pattern.slice(1), file, baseDir)) enabled = true;
	}
	for (const pattern of patterns) {
		if (pattern.startsWith("-") && matchesExact(pattern.slice(1), file, baseDir)) enabled = false;
	}
	return enabled;
}

/**
 * The decision of the last override entry (`+`, `-`, `!`) of a layer that names `builtin:<name>`,
 * or undefined when none does.
 */
export function lastBuiltinOverride(builtinPath: string, patterns: readonly string[]): boolean | undefined {
	let decision: boolean | undefined;
	for (const pattern of patterns) {
		const prefix = pattern[0];
		if (prefix !== "+" && prefix !== "-" && prefix !== "!") continue;
		const body = pattern.slice(1);
		const matches = prefix === "!" ? pathGlobToRegExp(body).test(builtinPath) : body === builtinPath;
		if (matches) decision = prefix === "+";
	}
	return decision;
}
