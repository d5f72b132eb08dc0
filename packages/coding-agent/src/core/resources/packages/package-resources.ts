import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { PackageSourceObject } from "../../../config/settings/types.js";
import { pathGlobToRegExp } from "../../tools/search/glob.js";
import {
	collectExtensionEntries,
	collectFilesByExtension,
	collectSkillEntries,
	readPackageManifest,
} from "../scan/directory-scan.js";
import { applyPatterns, deltaDecisions } from "./resource-patterns.js";

export type PackageResourceKind = "extensions" | "skills" | "prompts" | "themes";
export const PACKAGE_RESOURCE_KINDS: readonly PackageResourceKind[] = ["extensions", "skills", "prompts", "themes"];

/** One file a package offers, with whether the settings filter keeps it. */
export interface PackageResourceRecord {
	path: string;
	enabled: boolean;
}

export type PackageResources = Record<PackageResourceKind, PackageResourceRecord[]> & { changelogPath?: string };

/** Files of one kind inside a directory, by that kind's scanning rules. */
export function collectByKind(dir: string, kind: PackageResourceKind): string[] {
	switch (kind) {
		case "extensions":
			return collectExtensionEntries(dir);
		case "skills":
			return collectSkillEntries(dir, "pi");
		case "prompts":
			return collectFilesByExtension(dir, ".md", true);
		case "themes":
			return collectFilesByExtension(dir, ".json", true);
	}
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Files named by plain entries: exact paths as they are, globs expanded without dot segments. */
function expandManifestEntries(root: string, entries: readonly string[], kind: PackageResourceKind): string[] {
	const files: string[] = [];
	for (const entry of entries.filter((candidate) => !/^[!+-]/.test(candidate))) {
		const targets = /[*?]/.test(entry) ? globFromRoot(root, entry) : [join(root, entry)];
		for (const target of targets) {
			if (!existsSync(target)) continue;
			files.push(...(isDirectory(target) ? collectByKind(target, kind) : [target]));
		}
	}
	return files;
}

function globFromRoot(root: string, pattern: string): string[] {
	const regex = pathGlobToRegExp(pattern.replace(/^\.\//, ""));
	const all = collectFilesByExtension(root, "", true);
	return all
		.map((file) => relative(root, file).split(sep).join("/"))
		.filter((path) => regex.test(path) && !path.split("/").some((segment) => segment.startsWith(".")))
		.sort()
		.map((path) => join(root, path));
}

/** `changelogPath` (default CHANGELOG.md) when it is a regular file inside the package. */
function changelogOf(root: string, manifest: Record<string, unknown> | undefined): string | undefined {
	const configured = manifest?.changelogPath;
	const name = typeof configured === "string" ? configured : "CHANGELOG.md";
	if (name === "") return undefined;
	const path = resolve(root, name);
	try {
		if (!statSync(path).isFile()) return undefined;
		const realRoot = realpathSync(root);
		const realPath = realpathSync(path);
		return realPath.startsWith(realRoot + sep) ? path : undefined;
	} catch {
		return undefined;
	}
}

/**
 * What a package offers per kind: its manifest (`tau`, else `pi`) when that lists resources,
 * else the conventional `extensions/`, `skills/`, `prompts/`, `themes/` directories. A settings
 * filter (object entry) can only narrow this set; files it drops are recorded as disabled.
 */
export function collectPackageResources(root: string, filter?: PackageSourceObject): PackageResources {
	let manifest: Record<string, unknown> | undefined;
	try {
		manifest = readPackageManifest(JSON.parse(readFileSync(join(root, "package.json"), "utf8")));
	} catch {
		manifest = undefined;
	}
	const declaresResources = PACKAGE_RESOURCE_KINDS.some((kind) => Array.isArray(manifest?.[kind]));
	const result: PackageResources = { extensions: [], skills: [], prompts: [], themes: [] };
	for (const kind of PACKAGE_RESOURCE_KINDS) {
		let offered: string[];
		if (declaresResources) {
			const entries = manifest?.[kind];
			const strings = Array.isArray(entries)
				? entries.filter((entry): entry is string => typeof entry === "string")
				: [];
			const collected = expandManifestEntries(root, strings, kind);
			const enabled = applyPatterns(
				collected,
				strings.filter((entry) => /^[!+-]/.test(entry)),
				root,
			);
			offered = collected.filter((file) => enabled.has(file));
		} else {
			const dir = join(root, kind);
			offered = isDirectory(dir) ? collectByKind(dir, kind) : [];
		}
		const patterns = filter?.[kind];
		if (filter?.autoload === false) {
			// A project delta over a user package: records only for the files its patterns name.
			const decisions = deltaDecisions(offered, patterns ?? [], root);
			result[kind] = [...decisions].map(([path, enabled]) => ({ path, enabled }));
			continue;
		}
		// An omitted filter keeps everything; `[]` keeps nothing.
		const kept =
			patterns === undefined
				? new Set(offered)
				: patterns.length === 0
					? new Set<string>()
					: applyPatterns(offered, patterns, root);
		result[kind] = offered.map((path) => ({ path, enabled: kept.has(path) }));
	}
	const changelogPath = changelogOf(root, manifest);
	if (changelogPath) result.changelogPath = changelogPath;
	return result;
}
