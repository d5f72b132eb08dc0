import { readFileSync } from "node:fs";
import { errorMessage } from "../../errors.js";
import { stripFrontmatter } from "../frontmatter/frontmatter.js";
import type { Skill } from "./skills.js";

/** How the model can read a skill file: a named tool, or some other tool (e.g. codemode). */
export type SkillReader = "read" | "bash" | "indirect";

export function escapeXml(text: string): string {
	return text
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;")
		.replace(/'/g, "&apos;");
}

const LOAD_HINT: Record<SkillReader, string> = {
	read: "When a task matches a skill's description, use the read tool to load its file before acting.",
	bash: "When a task matches a skill's description, use bash to print its file (for example with cat) before acting.",
	indirect: "When a task matches a skill's description, read its file with the tools available to you before acting.",
};

/**
 * The body of the `skills` prompt section: a short preface and the `<available_skills>` block.
 * Skills that disable model invocation are not listed; with none left the result is empty.
 */
export function formatSkillsForPrompt(skills: readonly Skill[], reader: SkillReader = "read"): string {
	const visible = skills.filter((skill) => !skill.disableModelInvocation);
	if (visible.length === 0) return "";
	const lines = [
		"The following skills provide specialized instructions for specific tasks.",
		LOAD_HINT[reader],
		"Relative paths inside a skill resolve against the skill's directory (the parent of its SKILL.md); use absolute paths in tool calls.",
		"",
		"<available_skills>",
	];
	for (const skill of visible) {
		lines.push(
			"  <skill>",
			`    <name>${escapeXml(skill.name)}</name>`,
			`    <description>${escapeXml(skill.description)}</description>`,
			`    <location>${escapeXml(skill.filePath)}</location>`,
			"  </skill>",
		);
	}
	lines.push("</available_skills>");
	return lines.join("\n").trim();
}

/** The result of `/skill:name args`: expanded text, or the original text with a read error. */
export interface SkillExpansion {
	text: string;
	error?: string;
}

/**
 * Expands `/skill:name args` into a `<skill>` block holding the skill body; an unknown name
 * leaves the text unchanged (it may still match a prompt template).
 */
export function expandSkillCommand(text: string, skills: readonly Skill[]): SkillExpansion {
	if (!text.startsWith("/skill:")) return { text };
	const rest = text.slice("/skill:".length);
	const space = rest.search(/\s/);
	const name = space === -1 ? rest : rest.slice(0, space);
	const args = space === -1 ? "" : rest.slice(space + 1).trim();
	const skill = skills.find((candidate) => candidate.name === name);
	if (!skill) return { text };
	let content: string;
	try {
		content = readFileSync(skill.filePath, "utf8");
	} catch (error) {
		return { text, error: `Failed to read skill "${name}": ${errorMessage(error)}` };
	}
	const body = stripFrontmatter(content);
	const block = `<skill name="${escapeXml(skill.name)}" location="${escapeXml(skill.filePath)}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
	return { text: args ? `${block}\n\n${args}` : block };
}

/** The parts of a `<skill>` block that `/skill:name args` expanded into (see `expandSkillCommand`). */
export interface ParsedSkillBlock {
	name: string;
	location: string;
	content: string;
	/** The arguments typed after the command, if any. */
	userMessage: string | undefined;
}

const SKILL_BLOCK = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/;

/** The skill block a user message consists of; `null` for any other text. */
export function parseSkillBlock(text: string): ParsedSkillBlock | null {
	const match = SKILL_BLOCK.exec(text);
	if (!match) return null;
	return {
		name: match[1] as string,
		location: match[2] as string,
		content: match[3] as string,
		userMessage: match[4]?.trim() || undefined,
	};
}
