import { readFileSync, statSync } from "node:fs";
import { JsonFileError, parseJsonFile } from "../../../config/fs/json-file.js";
import { errorMessage } from "../../errors.js";
import { NameRegistry } from "../loader/name-registry.js";
import { collectFilesByExtension } from "../scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";
import { Theme } from "./theme.js";
import { validateTheme } from "./themes.js";

/** Reads and validates one theme file into a theme; problems are warnings naming the file. */
export function loadThemeFromFile(
	filePath: string,
	sourceInfo?: SourceInfo,
): { theme?: Theme; diagnostics: ResourceDiagnostic[] } {
	let data: unknown;
	try {
		data = parseJsonFile(filePath, readFileSync(filePath, "utf8"));
	} catch (error) {
		// A syntax error's message is `<file>:<line>:<column>: <what>`; a read error names the file here.
		const detail = error instanceof JsonFileError ? error.message : `${filePath}: ${errorMessage(error)}`;
		return { diagnostics: [{ type: "warning", message: `Failed to parse theme ${detail}`, path: filePath }] };
	}
	const { theme: definition, errors } = validateTheme(data);
	if (!definition) {
		return {
			diagnostics: [{ type: "warning", message: `Invalid theme ${filePath}: ${errors.join("; ")}`, path: filePath }],
		};
	}
	definition.sourcePath = filePath;
	if (sourceInfo) definition.sourceInfo = sourceInfo;
	return { theme: Theme.fromDefinition(definition), diagnostics: [] };
}

/**
 * Loads themes from files and directories in precedence order. A custom theme named `system`
 * is ignored (the name is reserved for the generated terminal theme); first name wins.
 */
export function loadThemes(
	sources: readonly { path: string; sourceInfo: SourceInfo; directChildrenOnly?: boolean }[],
	builtins: readonly Theme[] = [],
): { themes: Theme[]; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const registry = new NameRegistry<Theme>("theme");
	for (const source of sources) {
		let files: string[];
		try {
			if (statSync(source.path).isDirectory()) {
				files = collectFilesByExtension(source.path, ".json", !source.directChildrenOnly);
			} else if (source.path.endsWith(".json")) files = [source.path];
			else {
				diagnostics.push({ type: "warning", message: "theme path is not a json file", path: source.path });
				continue;
			}
		} catch {
			diagnostics.push({ type: "warning", message: "theme path does not exist", path: source.path });
			continue;
		}
		for (const file of files) {
			const loaded = loadThemeFromFile(file, { ...source.sourceInfo, path: file });
			diagnostics.push(...loaded.diagnostics);
			if (!loaded.theme) continue;
			if (loaded.theme.name === "system") {
				diagnostics.push({
					type: "warning",
					message: 'theme name "system" is reserved; theme ignored',
					path: file,
				});
				continue;
			}
			registry.add(loaded.theme.name, file, loaded.theme);
		}
	}
	for (const theme of builtins) registry.add(theme.name, theme.sourcePath ?? "<builtin>", theme);
	return { themes: registry.values(), diagnostics: [...diagnostics, ...registry.diagnostics] };
}
