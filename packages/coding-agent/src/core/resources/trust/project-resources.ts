import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { getProjectConfigDir } from "../../../config/paths.js";

/** Entries of `<cwd>/.tau` that need a trust decision (existence is enough). */
export const TRUST_REQUIRING_ENTRIES = [
	"settings.json",
	"mcp.json",
	"extensions",
	"skills",
	"prompts",
	"themes",
	"SYSTEM.md",
	"APPEND_SYSTEM.md",
];

function canonical(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * Project `.agents/skills` directories, nearest first: the cwd and its ancestors up to the git
 * repository root (nearest ancestor with a `.git` entry), or to the filesystem root outside a
 * repository. The user's own `~/.agents/skills` is not a project directory.
 */
export function projectAgentsSkillDirs(cwd: string, homeDir: string = homedir()): string[] {
	const userDir = canonical(join(homeDir, ".agents", "skills"));
	const dirs: string[] = [];
	for (let dir = canonical(cwd); ; dir = dirname(dir)) {
		const candidate = join(dir, ".agents", "skills");
		if (isDirectory(candidate) && canonical(candidate) !== userDir) dirs.push(candidate);
		if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return dirs;
	}
}

/**
 * Whether the project holds anything that can run code or change tau's behaviour: settings,
 * MCP servers, extensions, skills, prompts, themes, SYSTEM/APPEND_SYSTEM under `.tau`, or a
 * project `.agents/skills`. Context files and a bare `.tau/` do not count.
 */
export function hasTrustRequiringProjectResources(cwd: string, homeDir: string = homedir()): boolean {
	const configDir = getProjectConfigDir(canonical(cwd));
	if (TRUST_REQUIRING_ENTRIES.some((entry) => existsSync(join(configDir, entry)))) return true;
	return projectAgentsSkillDirs(cwd, homeDir).length > 0;
}
