import type { AgentTool } from "@tau/agent";
import type { SystemMessage } from "@tau/ai";
import type { AnyToolDefinition, ToolLoadout, ToolLoadoutChanges } from "../extensions/index.js";
import { exposureOf, normalizePromptGuidelines } from "../extensions/index.js";

export interface LoadoutView {
	declared: AgentTool<any>[];
	callable: AgentTool<any>[];
	registered: AgentTool<any>[];
	definition(name: string): AnyToolDefinition | undefined;
}

export interface AppliedLoadout {
	/** The active tools as the model sees them (replacement descriptions applied). */
	tools: AgentTool<any>[];
	/** Active tools whose declarations requests leave out. */
	hidden: Set<string>;
}

/**
 * Runs `prepareLoadout` of every active tool that defines one (docs/design/extensions.md#tool-exposure): replacement
 * descriptions and hidden declarations. A throwing hook is reported and ignored.
 */
export function applyLoadoutHooks(view: LoadoutView, report: (name: string, error: unknown) => void): AppliedLoadout {
	const loadout: ToolLoadout = {
		declared: view.declared,
		callable: view.callable,
		registered: view.registered,
		getExposure: (name) => {
			const definition = view.definition(name);
			return definition ? exposureOf(definition) : "hidden";
		},
		getNamespace: (name) => view.definition(name)?.namespace,
		getPromptGuidelines: (name) => normalizePromptGuidelines(view.definition(name)?.promptGuidelines),
	};
	const descriptions: Record<string, string> = {};
	const hidden = new Set<string>();
	for (const tool of view.declared) {
		const hook = view.definition(tool.name)?.prepareLoadout;
		if (!hook) continue;
		let changes: ToolLoadoutChanges | undefined;
		try {
			changes = hook(loadout);
		} catch (error) {
			report(tool.name, error);
			continue;
		}
		Object.assign(descriptions, changes?.descriptions ?? {});
		for (const name of changes?.hiddenDeclarations ?? []) hidden.add(name);
	}
	const tools = view.declared.map((tool) =>
		descriptions[tool.name] === undefined ? tool : { ...tool, description: descriptions[tool.name]! },
	);
	return { tools, hidden };
}

/** Removes hidden tools' declarations from every system message of a request (the transcript keeps them). */
export function withoutHiddenDeclarations<T extends { role: string }>(messages: T[], hidden: ReadonlySet<string>): T[] {
	if (hidden.size === 0) return messages;
	return messages.map((message) => {
		if (message.role !== "system") return message;
		const system = message as unknown as SystemMessage;
		if (!system.toolsAdded?.some((tool) => hidden.has(tool.name))) return message;
		return { ...system, toolsAdded: system.toolsAdded.filter((tool) => !hidden.has(tool.name)) } as unknown as T;
	});
}
