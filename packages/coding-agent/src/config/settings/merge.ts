import { isPlainObject } from "../fs/json-text.js";
import { isToolModifier } from "./default-tools.js";
import type { Settings } from "./types.js";

/**
 * Merges `override` over `base`: objects merge recursively, anything else (arrays, null, strings)
 * replaces, `undefined` is skipped. `defaultTools` is the one array that accumulates: an override
 * made only of `+name`/`-name` modifiers is appended to the base list.
 */
export function mergeSettings(base: Settings, override: Settings): Settings {
	const merged = mergeObjects(base, override) as Settings;
	const baseTools = base.defaultTools;
	const overrideTools = override.defaultTools;
	if (
		Array.isArray(baseTools) &&
		Array.isArray(overrideTools) &&
		overrideTools.every((entry) => typeof entry === "string" && isToolModifier(entry))
	) {
		merged.defaultTools = [...baseTools, ...overrideTools];
	}
	return merged;
}

function mergeObjects(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
	const result: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(override)) {
		if (value === undefined) continue;
		const current = result[key];
		result[key] = isPlainObject(current) && isPlainObject(value) ? mergeObjects(current, value) : value;
	}
	return result;
}
