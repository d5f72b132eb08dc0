import { existsSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { CONFIG_DIR_NAME } from "../../../config/app-identity.js";
import { getAgentDir } from "../../../config/paths.js";
import { errorMessage } from "../../errors.js";
import { NameRegistry } from "../loader/name-registry.js";
import { resolveResourcePath } from "../loader/path-key.js";
import { collectSkillEntries } from "../scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";
import { loadSkillFromFile, type Skill } from "./skills.js";

/*
 * Pi's standalone skill loaders (docs/skills.md): the same signatures and result shapes, so an
 * extension or SDK program calling them gets Pi's answer. Sessions load skills through the
 * resource loader instead, which adds packages, settings entries and `.agents/skills`.
 */

/** The skills a load found, with diagnostics for invalid skill files and name collisions. */
export interface LoadSkillsResult {
	skills: Skill[];
	diagnostics: ResourceDiagnostic[];
}

/** Options of `loadSkillsFromDir`: the directory to scan and the source label of the skills found there. */
export interface LoadSkillsFromDirOptions {
	/** Directory to scan. */
	dir: string;
	/** `user`, `project` or `path` (a local skill), or any other source name. */
	source: string;
}

export interface LoadSkillsOptions {
	/** Project directory: its `.tau/skills` is a default location. */
	cwd: string;
	/** Agent directory: its `skills` is a default location (default: the agent dir). */
	agentDir?: string;
	/** Files and directories to load besides the defaults (relative to `cwd`, `~` expanded). */
	skillPaths: string[];
	/** Load the user and project skill directories. */
	includeDefaults: boolean;
}

/** Where a skill came from, by the source name the loaders take. */
function skillSourceInfo(path: string, baseDir: string, source: string): SourceInfo {
	const local = source === "user" || source === "project" || source === "path";
	const scope = source === "user" ? "user" : source === "project" ? "project" : "temporary";
	return { path, source: local ? "local" : source, scope, origin: "top-level", baseDir };
}

function loadFiles(files: readonly string[], source: string): LoadSkillsResult {
	const result: LoadSkillsResult = { skills: [], diagnostics: [] };
	for (const file of files) {
		const loaded = loadSkillFromFile(file, skillSourceInfo(file, join(file, ".."), source));
		result.diagnostics.push(...loaded.diagnostics);
		if (loaded.skill) result.skills.push(loaded.skill);
	}
	return result;
}

/** Every skill of one directory (a `SKILL.md` directory is one skill; root `*.md` files count too). */
export function loadSkillsFromDir(options: LoadSkillsFromDirOptions): LoadSkillsResult {
	if (!existsSync(options.dir)) return { skills: [], diagnostics: [] };
	return loadFiles(collectSkillEntries(options.dir, "pi"), options.source);
}

function isWithin(dir: string, path: string): boolean {
	const rel = relative(dir, path);
	return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"));
}

/**
 * Skills of the default directories (user, then project) and of `skillPaths`, in that order. The
 * same file reached twice loads once; a later skill with a taken name is a collision diagnostic.
 */
export function loadSkills(options: LoadSkillsOptions): LoadSkillsResult {
	const cwd = resolve(options.cwd);
	const agentDir = resolve(options.agentDir ?? getAgentDir());
	const userDir = join(agentDir, "skills");
	const projectDir = join(cwd, CONFIG_DIR_NAME, "skills");
	const diagnostics: ResourceDiagnostic[] = [];
	const registry = new NameRegistry<Skill>("skill");
	const add = (result: LoadSkillsResult) => {
		diagnostics.push(...result.diagnostics);
		for (const skill of result.skills) registry.add(skill.name, skill.filePath, skill);
	};
	if (options.includeDefaults) {
		add(loadSkillsFromDir({ dir: userDir, source: "user" }));
		add(loadSkillsFromDir({ dir: projectDir, source: "project" }));
	}
	// Without the defaults, an explicit path inside a default directory keeps that directory's scope.
	const sourceOf = (path: string) => {
		if (!options.includeDefaults && isWithin(userDir, path)) return "user";
		if (!options.includeDefaults && isWithin(projectDir, path)) return "project";
		return "path";
	};
	for (const raw of options.skillPaths) {
		const path = resolveResourcePath(raw.trim(), cwd);
		if (!existsSync(path)) {
			diagnostics.push({ type: "warning", message: "skill path does not exist", path });
			continue;
		}
		try {
			const stats = statSync(path);
			if (stats.isDirectory()) add(loadSkillsFromDir({ dir: path, source: sourceOf(path) }));
			else if (stats.isFile() && path.endsWith(".md")) add(loadFiles([path], sourceOf(path)));
			else diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path });
		} catch (error) {
			diagnostics.push({ type: "warning", message: errorMessage(error), path });
		}
	}
	return { skills: registry.values(), diagnostics: [...diagnostics, ...registry.diagnostics] };
}
