import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { errorMessage } from "../../errors.js";
import { readFrontmatter } from "../frontmatter/frontmatter.js";
import { NameRegistry } from "../loader/name-registry.js";
import { collectFilesByExtension } from "../scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";
import { parseCommandArgs, substituteArgs } from "./arguments.js";

/** A Markdown file that expands `/name args` into user text. */
export interface PromptTemplate {
	name: string;
	description: string;
	argumentHint?: string;
	content: string;
	filePath: string;
	sourceInfo: SourceInfo;
}

const DESCRIPTION_LIMIT = 60;

/** Parses one template file; read and YAML errors are warnings naming the file. */
export function loadPromptTemplateFromFile(
	filePath: string,
	sourceInfo: SourceInfo,
): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
	let text: string;
	try {
		text = readFileSync(filePath, "utf8");
	} catch (error) {
		return {
			diagnostics: [
				{ type: "warning", message: `Failed to read prompt template: ${errorMessage(error)}`, path: filePath },
			],
		};
	}
	const parsed = readFrontmatter(text);
	if (!parsed.ok) {
		return { diagnostics: [{ type: "warning", message: `Invalid frontmatter: ${parsed.error}`, path: filePath }] };
	}
	const { frontmatter, body } = parsed;
	let description = typeof frontmatter.description === "string" ? frontmatter.description.trim() : "";
	if (description === "") {
		const firstLine =
			body
				.split("\n")
				.find((line) => line.trim() !== "")
				?.trim() ?? "";
		description = firstLine.length > DESCRIPTION_LIMIT ? `${firstLine.slice(0, DESCRIPTION_LIMIT)}...` : firstLine;
	}
	const template: PromptTemplate = {
		name: basename(filePath).replace(/\.md$/, ""),
		description,
		content: body,
		filePath,
		sourceInfo,
	};
	const hint = frontmatter["argument-hint"];
	if (typeof hint === "string" && hint.trim() !== "") template.argumentHint = hint.trim();
	return { template, diagnostics: [] };
}

/**
 * Loads templates from files and directories in precedence order (directories scanned
 * recursively, or only their direct children when `directChildrenOnly`); the first template of a
 * name wins and later ones get a collision diagnostic.
 */
export function loadPromptTemplates(
	sources: readonly { path: string; sourceInfo: SourceInfo; directChildrenOnly?: boolean }[],
): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const registry = new NameRegistry<PromptTemplate>("prompt", (name) => `name "/${name}" collision`);
	for (const source of sources) {
		let files: string[];
		try {
			files = statSync(source.path).isDirectory()
				? collectFilesByExtension(source.path, ".md", !source.directChildrenOnly)
				: source.path.endsWith(".md")
					? [source.path]
					: [];
		} catch {
			continue;
		}
		for (const file of files) {
			const loaded = loadPromptTemplateFromFile(file, { ...source.sourceInfo, path: file });
			diagnostics.push(...loaded.diagnostics);
			if (loaded.template) registry.add(loaded.template.name, loaded.template.filePath, loaded.template);
		}
	}
	return { prompts: registry.values(), diagnostics: [...diagnostics, ...registry.diagnostics] };
}

/**
 * Expands `/name args` when `name` is exactly a template name; any other text is returned as is.
 */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
	const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
	if (!match) return text;
	const template = templates.find((candidate) => candidate.name === match[1]);
	if (!template) return text;
	return substituteArgs(template.content, parseCommandArgs(match[2] ?? ""));
}
