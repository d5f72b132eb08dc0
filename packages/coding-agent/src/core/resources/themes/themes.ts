import { readFileSync, statSync } from "node:fs";
import { JsonFileError, parseJsonFile } from "../../../config/fs/json-file.js";
import { errorMessage, isPlainObject } from "../../../config/fs/json-text.js";
import { NameRegistry } from "../loader/name-registry.js";
import { collectFilesByExtension } from "../scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../types.js";
import { resolveThemeColor, type ThemeColor } from "./theme-colors.js";

export const REQUIRED_THEME_TOKENS = [
	"accent",
	"border",
	"borderAccent",
	"borderMuted",
	"success",
	"error",
	"warning",
	"muted",
	"dim",
	"text",
	"thinkingText",
	"selectedBg",
	"userMessageBg",
	"userMessageText",
	"customMessageBg",
	"customMessageText",
	"customMessageLabel",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
	"toolTitle",
	"toolOutput",
	"mdHeading",
	"mdLink",
	"mdLinkUrl",
	"mdCode",
	"mdCodeBlock",
	"mdCodeBlockBorder",
	"mdQuote",
	"mdQuoteBorder",
	"mdHr",
	"mdListBullet",
	"toolDiffAdded",
	"toolDiffRemoved",
	"toolDiffContext",
	"syntaxComment",
	"syntaxKeyword",
	"syntaxFunction",
	"syntaxVariable",
	"syntaxString",
	"syntaxNumber",
	"syntaxType",
	"syntaxOperator",
	"syntaxPunctuation",
	"thinkingOff",
	"thinkingMinimal",
	"thinkingLow",
	"thinkingMedium",
	"thinkingHigh",
	"thinkingXhigh",
	"bashMode",
] as const;

/** Optional tokens and the token each falls back to. */
export const OPTIONAL_THEME_TOKENS: Readonly<Record<string, string>> = {
	scrollbarTrack: "muted",
	scrollbarThumb: "text",
	searchMatchBg: "selectedBg",
	searchMatchText: "text",
	thinkingMax: "thinkingXhigh",
};

const TOP_LEVEL_KEYS = new Set(["$schema", "name", "appearance", "vars", "colors", "export"]);
const EXPORT_KEYS = ["pageBg", "cardBg", "infoBg"] as const;

/** A validated theme with every token resolved (optional ones through their fallbacks). */
export interface Theme {
	name: string;
	appearance?: "dark" | "light";
	colors: Record<string, ThemeColor>;
	/** HTML export colors; missing ones derive from `userMessageBg`. */
	export: Record<(typeof EXPORT_KEYS)[number], ThemeColor>;
	sourcePath?: string;
	sourceInfo?: SourceInfo;
}

/** Validates parsed theme JSON; returns the theme or every problem found. */
export function validateTheme(data: unknown): { theme?: Theme; errors: string[] } {
	if (!isPlainObject(data)) return { errors: ["theme must be a JSON object"] };
	const errors: string[] = [];
	for (const key of Object.keys(data)) if (!TOP_LEVEL_KEYS.has(key)) errors.push(`unknown property "${key}"`);
	const name = data.name;
	if (typeof name !== "string" || name.trim() === "") errors.push('"name" must be a non-empty string');
	else if (name.includes("/")) errors.push(`theme name "${name}" must not contain "/"`);
	if (data.appearance !== undefined && data.appearance !== "dark" && data.appearance !== "light") {
		errors.push('"appearance" must be "dark" or "light"');
	}
	if (data.vars !== undefined && !isPlainObject(data.vars)) errors.push('"vars" must be an object');
	const vars = isPlainObject(data.vars) ? data.vars : {};
	const colorsIn = data.colors;
	const colors: Record<string, ThemeColor> = {};
	const resolve = (where: string, value: unknown): ThemeColor | undefined => {
		const color = resolveThemeColor(value, vars);
		if ("error" in color) {
			errors.push(`${where}: ${color.error}`);
			return undefined;
		}
		return color;
	};
	if (!isPlainObject(colorsIn)) errors.push('"colors" must be an object');
	else {
		for (const key of Object.keys(colorsIn)) {
			if (!(REQUIRED_THEME_TOKENS as readonly string[]).includes(key) && !(key in OPTIONAL_THEME_TOKENS)) {
				errors.push(`unknown color token "${key}"`);
			}
		}
		for (const token of REQUIRED_THEME_TOKENS) {
			if (!Object.hasOwn(colorsIn, token)) errors.push(`missing color token "${token}"`);
			else {
				const color = resolve(`colors.${token}`, colorsIn[token]);
				if (color) colors[token] = color;
			}
		}
		for (const [token, fallback] of Object.entries(OPTIONAL_THEME_TOKENS)) {
			const color = Object.hasOwn(colorsIn, token) ? resolve(`colors.${token}`, colorsIn[token]) : colors[fallback];
			if (color) colors[token] = color;
		}
	}
	const exportIn = data.export;
	const exportColors = {} as Theme["export"];
	if (exportIn !== undefined && !isPlainObject(exportIn)) errors.push('"export" must be an object');
	const exportRecord = isPlainObject(exportIn) ? exportIn : {};
	for (const key of Object.keys(exportRecord)) {
		if (!(EXPORT_KEYS as readonly string[]).includes(key)) errors.push(`unknown export color "${key}"`);
	}
	for (const key of EXPORT_KEYS) {
		const color = Object.hasOwn(exportRecord, key)
			? resolve(`export.${key}`, exportRecord[key])
			: colors.userMessageBg;
		if (color) exportColors[key] = color;
	}
	if (errors.length > 0) return { errors };
	const theme: Theme = { name: name as string, colors, export: exportColors };
	if (data.appearance === "dark" || data.appearance === "light") theme.appearance = data.appearance;
	return { theme, errors };
}

/** Reads and validates one theme file; problems are warnings naming the file. */
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
	const { theme, errors } = validateTheme(data);
	if (!theme) {
		return {
			diagnostics: [{ type: "warning", message: `Invalid theme ${filePath}: ${errors.join("; ")}`, path: filePath }],
		};
	}
	theme.sourcePath = filePath;
	if (sourceInfo) theme.sourceInfo = sourceInfo;
	return { theme, diagnostics: [] };
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

/** A `theme` setting: one name, or `light/dark` (exactly one slash, both sides non-empty). */
export function parseThemeSetting(value: string): { name: string } | { light: string; dark: string } {
	const parts = value.split("/");
	if (parts.length === 2) {
		const light = (parts[0] as string).trim();
		const dark = (parts[1] as string).trim();
		if (light !== "" && dark !== "") return { light, dark };
	}
	return { name: value.trim() };
}

/**
 * Light or dark terminal: the reported background first, then the terminal's own notification,
 * then `COLORFGBG` (last field 0-6 and 8 dark, 7 and 9-15 light), else dark.
 */
export function detectTerminalAppearance(input: {
	reportedBackground?: { r: number; g: number; b: number };
	notifiedAppearance?: "dark" | "light";
	colorFgBg?: string;
}): "dark" | "light" {
	const bg = input.reportedBackground;
	if (bg) return 0.2126 * bg.r + 0.7152 * bg.g + 0.0722 * bg.b > 127.5 ? "light" : "dark";
	if (input.notifiedAppearance) return input.notifiedAppearance;
	if (input.colorFgBg) {
		const last = input.colorFgBg.split(";").pop()?.trim() ?? "";
		if (/^\d+$/.test(last)) {
			const index = Number(last);
			if (index >= 0 && index <= 15) return index <= 6 || index === 8 ? "dark" : "light";
		}
	}
	return "dark";
}
