import { isPlainObject } from "../../../config/fs/json-text.js";
import type { SourceInfo } from "../types.js";
import { resolveThemeColor, type ThemeColorValue } from "./theme-colors.js";
import { OPTIONAL_THEME_TOKENS, REQUIRED_THEME_TOKENS } from "./theme-tokens.js";

const TOP_LEVEL_KEYS = new Set(["$schema", "name", "appearance", "vars", "colors", "export"]);
const EXPORT_KEYS = ["pageBg", "cardBg", "infoBg"] as const;

/** A validated theme file with every token resolved (optional ones through their fallbacks). */
export interface ThemeDefinition {
	name: string;
	appearance?: "dark" | "light";
	colors: Record<string, ThemeColorValue>;
	/** HTML export colors; missing ones derive from `userMessageBg`. */
	export: Record<(typeof EXPORT_KEYS)[number], ThemeColorValue>;
	sourcePath?: string;
	sourceInfo?: SourceInfo;
}

/** Validates parsed theme JSON; returns the theme or every problem found. */
export function validateTheme(data: unknown): { theme?: ThemeDefinition; errors: string[] } {
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
	const colors: Record<string, ThemeColorValue> = {};
	const resolve = (where: string, value: unknown): ThemeColorValue | undefined => {
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
	const exportColors = {} as ThemeDefinition["export"];
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
	const theme: ThemeDefinition = { name: name as string, colors, export: exportColors };
	if (data.appearance === "dark" || data.appearance === "light") theme.appearance = data.appearance;
	return { theme, errors };
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
