import { getCurrentTools, type SystemMessage } from "@tau/ai";
import { applyToolModifiers, DEFAULT_TOOL_NAMES } from "../../config/index.js";
import { allToolNames, type ToolName } from "../tools/index.js";
import type { ToolRegistry } from "./tool-registry.js";

export interface LoadoutRestoreOptions {
	/** The session's `+`/`-` modifiers of `defaultTools`, re-applied to the restored loadout. */
	modifiers?: readonly string[] | undefined;
	/**
	 * Whether the built-ins come from the transcript (the session started from `defaultTools`). Otherwise
	 * they stay as the session was started (an allowlist or no built-ins) and only other tools are restored.
	 */
	builtinsFromTranscript: boolean;
}

/**
 * The tool loadout a branch records: the tools its system messages declare, plus extension tools the
 * branch never mentions that activate on registration, with `defaultTools` modifiers re-applied.
 * Undefined when the branch has no system message yet (the current tools stay).
 */
export function restoredLoadout(
	messages: readonly { role: string }[],
	registry: ToolRegistry,
	options: LoadoutRestoreOptions,
): string[] | undefined {
	const systems = messages.filter((message): message is SystemMessage => message.role === "system");
	if (systems.length === 0) return undefined;
	const mentioned = new Set<string>();
	for (const system of systems) {
		for (const tool of system.toolsAdded ?? []) mentioned.add(tool.name);
		for (const tool of system.toolsRemoved ?? []) mentioned.add(tool.name);
	}
	const recorded = getCurrentTools(systems).map((tool) => tool.name);
	const current = registry.getActiveToolNames();
	const fresh = current.filter((name) => !mentioned.has(name) && !registry.isBuiltin(name));
	const isBuiltinName = (name: string) => allToolNames.has(name as ToolName);
	const loadout = options.builtinsFromTranscript
		? [...recorded, ...fresh]
		: [...current.filter(isBuiltinName), ...recorded.filter((name) => !isBuiltinName(name)), ...fresh];
	const { modifiers } = options;
	return modifiers && modifiers.length > 0 ? applyToolModifiers(modifiers, loadout) : loadout;
}

/** The built-ins the `defaultTools` setting asks for, with the session's own `+`/`-` modifiers applied. */
export function defaultToolNames(setting: readonly string[] | undefined, modifiers: readonly string[] | undefined) {
	const defaults = setting ? applyToolModifiers(setting) : [...DEFAULT_TOOL_NAMES];
	return modifiers ? applyToolModifiers(modifiers, defaults) : defaults;
}
