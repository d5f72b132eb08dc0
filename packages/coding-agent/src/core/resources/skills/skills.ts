import { readFileSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { errorMessage } from "../../errors.js";
import { readFrontmatter } from "../frontmatter/frontmatter.js";
import { NameRegistry } from "../loader/name-registry.js";
import { collectSkillEntries } from "../scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";

/** An Agent Skills `SKILL.md` (or a loose Markdown skill): listed in the prompt, read on demand. */
export interface Skill {
	name: string;
	description: string;
	filePath: string;
	/** The skill's directory; relative paths inside the skill resolve against it. */
	baseDir: string;
	sourceInfo: SourceInfo;
	disableModelInvocation: boolean;
}

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 1024;

function nameWarnings(name: string): string[] {
	const warnings: string[] = [];
	if (name.length > MAX_NAME_LENGTH) warnings.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
	if (!/^[a-z0-9-]*$/.test(name)) {
		warnings.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
	}
	if (name.startsWith("-") || name.endsWith("-")) warnings.push("name must not start or end with a hyphen");
	if (name.includes("--")) warnings.push("name must not contain consecutive hyphens");
	return warnings;
}

/**
 * Loads one skill file. Validation is lenient: naming problems are warnings and the skill still
 * loads; a `SKILL.md` without a description does not load; a loose Markdown file without a
 * description is ordinary Markdown and is skipped silently.
 */
export function loadSkillFromFile(
	filePath: string,
	sourceInfo: SourceInfo,
): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
	const isSkillFile = basename(filePath) === "SKILL.md";
	const warn = (message: string): ResourceDiagnostic => ({ type: "warning", message, path: filePath });
	let text: string;
	try {
		text = readFileSync(filePath, "utf8");
	} catch (error) {
		return { diagnostics: [warn(`Failed to read skill: ${errorMessage(error)}`)] };
	}
	const parsed = readFrontmatter(text);
	if (!parsed.ok) return { diagnostics: isSkillFile ? [warn(`Invalid frontmatter: ${parsed.error}`)] : [] };
	const { frontmatter } = parsed;
	// Stored as written (Pi does the same); only its presence is judged without surrounding blanks.
	const description = typeof frontmatter.description === "string" ? frontmatter.description : "";
	if (description.trim() === "") return { diagnostics: isSkillFile ? [warn("description is required")] : [] };
	const diagnostics: ResourceDiagnostic[] = [];
	if (description.length > MAX_DESCRIPTION_LENGTH) {
		diagnostics.push(warn(`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`));
	}
	const declared = typeof frontmatter.name === "string" ? frontmatter.name.trim() : "";
	// Loose files fall back to their own stem so several unnamed files in one folder do not collide.
	const fallback = isSkillFile ? basename(dirname(filePath)) : basename(filePath).replace(/\.md$/, "");
	const name = declared || fallback;
	diagnostics.push(...nameWarnings(name).map(warn));
	return {
		skill: {
			name,
			description,
			filePath,
			baseDir: dirname(filePath),
			sourceInfo,
			disableModelInvocation: frontmatter["disable-model-invocation"] === true,
		},
		diagnostics,
	};
}

export interface SkillSource {
	path: string;
	sourceInfo: SourceInfo;
	/** `.agents/skills` directories ignore loose files at their root. */
	mode?: "pi" | "agents";
}

/** Loads skills from files and directories in precedence order; first name wins. */
export function loadSkillsFromSources(sources: readonly SkillSource[]): {
	skills: Skill[];
	diagnostics: ResourceDiagnostic[];
} {
	const diagnostics: ResourceDiagnostic[] = [];
	const registry = new NameRegistry<Skill>("skill");
	for (const source of sources) {
		let files: string[];
		try {
			if (statSync(source.path).isDirectory()) files = collectSkillEntries(source.path, source.mode ?? "pi");
			else if (source.path.endsWith(".md")) files = [source.path];
			else {
				diagnostics.push({ type: "warning", message: "skill path is not a markdown file", path: source.path });
				continue;
			}
		} catch {
			diagnostics.push({ type: "warning", message: "skill path does not exist", path: source.path });
			continue;
		}
		for (const file of files) {
			const loaded = loadSkillFromFile(file, { ...source.sourceInfo, path: file });
			diagnostics.push(...loaded.diagnostics);
			if (loaded.skill) registry.add(loaded.skill.name, file, loaded.skill);
		}
	}
	return { skills: registry.values(), diagnostics: [...diagnostics, ...registry.diagnostics] };
}
