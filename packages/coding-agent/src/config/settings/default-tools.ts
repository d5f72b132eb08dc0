import { DEFAULT_TOOL_NAMES } from "./defaults.js";

/** `+name` or `-name`: adds to or removes from the inherited tool list. */
export function isToolModifier(entry: string): boolean {
	return entry.startsWith("+") || entry.startsWith("-");
}

/**
 * Validates a tool list as given by `--tools` or a settings layer: plain names and modifiers
 * cannot be mixed, and modifiers take exact names. Returns the error message or undefined.
 */
export function getToolListError(entries: readonly string[]): string | undefined {
	const modifiers = entries.filter(isToolModifier);
	if (modifiers.length > 0 && modifiers.length < entries.length) {
		return "tool names cannot be mixed with +name or -name entries";
	}
	const pattern = modifiers.find((entry) => entry.includes("*"));
	if (pattern !== undefined) return `+name and -name entries take exact tool names, not patterns: ${pattern}`;
	return undefined;
}

/**
 * Resolves a (merged) tool list: plain entries are the base (the built-in defaults when there are
 * none and the list is not empty), then modifiers apply in order.
 */
export function applyToolModifiers(entries: readonly string[], base: readonly string[] = DEFAULT_TOOL_NAMES): string[] {
	const plain = entries.filter((entry) => !isToolModifier(entry));
	const result = plain.length > 0 || entries.length === 0 ? [...plain] : [...base];
	for (const entry of entries) {
		if (!isToolModifier(entry)) continue;
		const name = entry.slice(1);
		if (name === "") continue;
		const index = result.indexOf(name);
		if (entry.startsWith("+") && index < 0) result.push(name);
		if (entry.startsWith("-") && index >= 0) result.splice(index, 1);
	}
	return result;
}
