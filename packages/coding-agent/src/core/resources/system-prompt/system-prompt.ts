import { getSystemMessageText } from "@tau/ai";
import { APP_NAME, getDocsPath, getExamplesPath, getReadmePath } from "../../../config/app-identity.js";
import type { ContextFile } from "../context-files/context-files.js";
import { formatSkillsForPrompt, type SkillReader } from "../skills/skill-prompt.js";
import type { Skill } from "../skills/skills.js";

/** Named prompt sections in order; every section but `preamble` is wrapped in `<name>` tags. */
export type SystemPromptSections = Record<string, string>;

/**
 * What the system prompt is built from: a custom prompt or appended text, the selected tools and their guidelines,
 * context files, skills and the working directory.
 */
export interface BuildSystemPromptOptions {
	/** Replacement prompt (SYSTEM.md, `--system-prompt`): drops the generated tools, rules and docs. */
	customPrompt?: string;
	/** An exact prompt from a `before_agent_start` handler; sent as is, never persisted. */
	forceSystemPrompt?: string;
	selectedTools?: string[];
	/** Selected but not declared to the model (reachable through another tool). */
	hiddenTools?: string[];
	toolSnippets?: Record<string, string>;
	toolGuidelines?: Record<string, string[]>;
	promptGuidelines?: string[];
	appendSystemPrompt?: string;
	/** Extra sections from extensions, in insertion order. */
	sections?: Record<string, string>;
	cwd: string;
	contextFiles?: ContextFile[];
	skills?: Skill[];
}

export const DEFAULT_SELECTED_TOOLS = ["read", "bash", "edit", "write"];
const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

/** A deep copy, so extensions may mutate the structure they are handed. */
export function normalizeBuildSystemPromptOptions(options: BuildSystemPromptOptions): BuildSystemPromptOptions {
	const copy: BuildSystemPromptOptions = {
		...options,
		selectedTools: [...(options.selectedTools ?? DEFAULT_SELECTED_TOOLS)],
		hiddenTools: [...(options.hiddenTools ?? [])],
		toolSnippets: { ...options.toolSnippets },
		toolGuidelines: Object.fromEntries(
			Object.entries(options.toolGuidelines ?? {}).map(([tool, rules]) => [tool, [...rules]]),
		),
		promptGuidelines: [...(options.promptGuidelines ?? [])],
		sections: { ...options.sections },
		contextFiles: (options.contextFiles ?? []).map((file) => ({ ...file })),
		skills: [...(options.skills ?? [])],
	};
	return copy;
}

function preamble(): string {
	return `You are a coding assistant running inside ${APP_NAME}, a coding-agent harness. You help users inspect files, run commands and modify code.`;
}

function toolsSection(declared: readonly string[], snippets: Record<string, string>): string {
	const lines = declared.flatMap((tool) => {
		const snippet = snippets[tool]?.replace(/\s+/g, " ").trim();
		return snippet ? [`- ${tool}: ${snippet}`] : [];
	});
	return `${lines.length > 0 ? lines.join("\n") : "(none)"}\n\nFurther tools may be made available to you during the conversation.`;
}

function searchRule(declared: readonly string[]): string | undefined {
	if (["grep", "find", "ls"].some((tool) => declared.includes(tool))) return undefined;
	const bash = declared.includes("bash");
	const powershell = declared.includes("powershell");
	if (bash && powershell) return "Use bash (ls, rg, find) or PowerShell to list and search files.";
	if (bash) return "Use bash to list and search files (ls, rg, find).";
	if (powershell) return "Use PowerShell to list and search files (Get-ChildItem, Select-String).";
	return undefined;
}

function rulesSection(options: BuildSystemPromptOptions, declared: readonly string[]): string {
	const rules: string[] = [];
	const search = searchRule(declared);
	if (search) rules.push(search);
	for (const tool of declared) rules.push(...(options.toolGuidelines?.[tool] ?? []));
	rules.push(...(options.promptGuidelines ?? []));
	rules.push("Be concise in your responses.", "Show file paths clearly when working with files.");
	const unique = [...new Set(rules.map((rule) => rule.trim()).filter((rule) => rule !== ""))];
	return unique.map((rule) => `- ${rule}`).join("\n");
}

function docsSection(): string {
	return [
		`${APP_NAME}'s own documentation:`,
		`- README: ${getReadmePath()}`,
		`- docs: ${getDocsPath()}`,
		`- examples: ${getExamplesPath()}`,
		`Read these only when the user asks about ${APP_NAME} itself (its SDK, extensions, themes, skills, prompt templates, TUI, keybindings or settings). References such as docs/... and examples/... mean these directories, not the working directory.`,
		"Topics: extensions -> docs/extensions.md; skills -> docs/skills.md; prompt templates -> docs/prompt-templates.md; themes -> docs/themes.md; context files -> docs/context-files.md; project trust -> docs/trust.md; settings -> docs/configuration.md; SDK -> docs/sdk.md.",
		`Before implementing a change to ${APP_NAME} itself, read the relevant documents fully.`,
	].join("\n");
}

function projectContextSection(files: readonly ContextFile[]): string {
	const blocks = files.map(
		(file) => `<project_instructions path="${file.path}">\n${file.content}\n</project_instructions>`,
	);
	return ["The following project-specific instructions and guidelines apply:", ...blocks].join("\n\n");
}

/** The tool that reads skill files, "indirect" when it is only reachable through another tool. */
function skillReader(selected: readonly string[], declared: readonly string[]): SkillReader | undefined {
	if (declared.includes("read")) return "read";
	if (declared.includes("bash")) return "bash";
	if (selected.includes("read") || selected.includes("bash")) return "indirect";
	return undefined;
}

function tag(name: string, content: string): string {
	return name === "preamble" ? content : `<${name}>\n${content}\n</${name}>`;
}

/** The ordered, tagged sections of the system prompt (docs/design/resources.md#system-prompt-sections). */
export function buildSystemPromptSections(input: BuildSystemPromptOptions): SystemPromptSections {
	const options = normalizeBuildSystemPromptOptions(input);
	const selected = options.selectedTools ?? [];
	const hidden = new Set(options.hiddenTools);
	const declared = selected.filter((tool) => !hidden.has(tool));
	const raw: [string, string][] = [];
	const custom = options.customPrompt;
	raw.push(["preamble", custom ?? preamble()]);
	if (custom === undefined) {
		raw.push(["tools", toolsSection(declared, options.toolSnippets ?? {})]);
		raw.push(["rules", rulesSection(options, declared)]);
		raw.push(["docs", docsSection()]);
	}
	if (options.appendSystemPrompt) raw.push(["addendum", options.appendSystemPrompt]);
	if (options.contextFiles && options.contextFiles.length > 0) {
		raw.push(["project_context", projectContextSection(options.contextFiles)]);
	}
	const reader = skillReader(selected, declared);
	const skillsText = reader ? formatSkillsForPrompt(options.skills ?? [], reader) : "";
	if (skillsText) raw.push(["skills", skillsText]);
	raw.push(["cwd", options.cwd.replace(/\\/g, "/")]);

	const sections = new Map(raw);
	for (const [name, text] of Object.entries(options.sections ?? {})) {
		if (!SECTION_NAME.test(name) || name === "preamble") {
			throw new Error(`Invalid system prompt section name: ${name}`);
		}
		// A built-in name replaces that section's content in place (a Map keeps the key's position).
		if (text !== "") sections.set(name, text);
	}
	const tagged: SystemPromptSections = {};
	for (const [name, text] of sections) tagged[name] = tag(name, text);
	return tagged;
}

/** The structured prompt state: forced text as content, otherwise the sections. */
export function buildSystemPromptState(options: BuildSystemPromptOptions): {
	content: string;
	sections?: SystemPromptSections;
} {
	if (options.forceSystemPrompt !== undefined) return { content: options.forceSystemPrompt };
	return { content: "", sections: buildSystemPromptSections(options) };
}

/** The prompt as the model sees it: non-empty parts joined with blank lines. */
export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
	const state = buildSystemPromptState(options);
	return getSystemMessageText({ role: "system", content: state.content, sections: state.sections, timestamp: 0 });
}
