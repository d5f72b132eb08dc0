import { getCurrentTools, type SystemMessage } from "@tau/ai";
import { applyToolModifiers, DEFAULT_TOOL_NAMES } from "../../config/index.js";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * The tool loadout a branch records: the tools its system messages declare, plus extension tools the
 * branch never mentions that activate on registration, with `defaultTools` modifiers re-applied.
 * Undefined when the branch has no system message yet (the current tools stay).
 */
export function restoredLoadout(
	messages: readonly { role: string }[],
	registry: ToolRegistry,
	modifiers: readonly string[] | undefined,
): string[] | undefined {
	const systems = messages.filter((message): message is SystemMessage => message.role === "system");
	if (systems.length === 0) return undefined;
	const mentioned = new Set<string>();
	for (const system of systems) {
		for (const tool of system.toolsAdded ?? []) mentioned.add(tool.name);
		for (const tool of system.toolsRemoved ?? []) mentioned.add(tool.name);
	}
	const recorded = getCurrentTools(systems).map((tool) => tool.name);
	const fresh = registry.getActiveToolNames().filter((name) => !mentioned.has(name) && !registry.isBuiltin(name));
	const loadout = [...recorded, ...fresh];
	return modifiers && modifiers.length > 0 ? applyToolModifiers(modifiers, loadout) : loadout;
}

/** The built-ins the `defaultTools` setting asks for, with the session's own `+`/`-` modifiers applied. */
export function defaultToolNames(setting: readonly string[] | undefined, modifiers: readonly string[] | undefined) {
	const defaults = setting ? applyToolModifiers(setting) : [...DEFAULT_TOOL_NAMES];
	return modifiers ? applyToolModifiers(modifiers, defaults) : defaults;
}
