import { applyToolModifiers, getToolListError, isToolModifier } from "../../config/settings/default-tools.js";
import { DEFAULT_TOOL_NAMES } from "../../config/settings/defaults.js";

/** `*` matches any run of characters; everything else is literal. */
export function matchesToolPattern(name: string, pattern: string): boolean {
	if (!pattern.includes("*")) return name === pattern;
	const source = pattern
		.split("*")
		.map((part) => part.replace(/[\\^$.+?()[\]{}|]/g, "\\$&"))
		.join(".*");
	return new RegExp(`^${source}$`).test(name);
}

/** A parsed `--tools` value: an allowlist of names/patterns, or modifiers of the default set. */
export type ToolsFlagValue = { kind: "allowlist"; patterns: string[] } | { kind: "modifiers"; modifiers: string[] };

/**
 * Parses a `--tools`/`-t` value (comma-separated, trimmed, empties dropped). `flag` is the token
 * the user typed, used in error messages.
 */
export function parseToolsFlag(flag: string, value: string): ToolsFlagValue {
	const entries = value
		.split(",")
		.map((entry) => entry.trim())
		.filter((entry) => entry !== "");
	const error = getToolListError(entries);
	if (error) throw new Error(`${flag}: ${error}`);
	if (!entries.some(isToolModifier)) return { kind: "allowlist", patterns: entries };
	return { kind: "modifiers", modifiers: entries };
}

export interface ToolSelectionInput {
	/** Parsed `--tools` (or SDK `tools`). */
	tools?: ToolsFlagValue;
	/** `--exclude-tools`: names/patterns removed after everything else. */
	excludeTools?: readonly string[];
	/** `--no-builtin-tools` → "builtin", `--no-tools` → "all". */
	noTools?: "builtin" | "all";
	/** The merged `defaultTools` setting (absent → read, bash, edit, write). */
	defaultTools?: readonly string[];
}

export interface ToolSelection {
	/** Names (or patterns from an allowlist) active at start, exclusions removed. */
	initialActiveToolNames: string[];
	/** Only matching tools are registered when set (`[]` = nothing). */
	allowedToolNames?: string[];
	excludedToolNames?: string[];
	/** Modifiers to re-apply when a resumed session restores its recorded loadout. */
	defaultToolModifiers?: string[];
	/** Whether the initial built-ins came from `defaultTools` (restorable from the transcript). */
	usesDefaultTools: boolean;
}

/** Resolves the tool selection of a session (docs/design/session-runtime.md#tool-selection) as a pure function. */
export function resolveToolSelection(input: ToolSelectionInput): ToolSelection {
	let defaultToolNames: string[] = [];
	if (!input.noTools)
		defaultToolNames = input.defaultTools ? applyToolModifiers(input.defaultTools) : [...DEFAULT_TOOL_NAMES];
	const modifiers = input.tools?.kind === "modifiers" ? input.tools.modifiers : undefined;
	const modifiedList = modifiers ? applyToolModifiers(modifiers, defaultToolNames) : undefined;
	let allowedToolNames: string[] | undefined;
	if (input.tools?.kind === "allowlist") allowedToolNames = [...input.tools.patterns];
	else if (input.noTools === "all") allowedToolNames = modifiedList ?? [];
	const excluded = input.excludeTools ?? [];
	const initial = (modifiedList ?? allowedToolNames ?? defaultToolNames).filter(
		(name) => !excluded.some((pattern) => matchesToolPattern(name, pattern)),
	);
	const selection: ToolSelection = {
		initialActiveToolNames: initial,
		usesDefaultTools: (input.tools === undefined || modifiers !== undefined) && !input.noTools,
	};
	if (allowedToolNames) selection.allowedToolNames = allowedToolNames;
	if (excluded.length > 0) selection.excludedToolNames = [...excluded];
	if (modifiers) selection.defaultToolModifiers = [...modifiers];
	return selection;
}
