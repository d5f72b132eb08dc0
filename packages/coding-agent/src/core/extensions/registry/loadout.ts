import type { AnyToolDefinition, ToolLoadout } from "../api/tool-definition.js";

export interface LoadoutChanges {
	/** Replacement model-facing descriptions by tool name (later hooks override earlier ones). */
	descriptions: Map<string, string>;
	/** Active tools whose declarations requests leave out (they stay active and callable). */
	hiddenDeclarations: Set<string>;
}

/**
 * Runs `prepareLoadout` of every active tool that defines it (in active order) and merges the
 * answers. A throwing hook is reported (`prepare_loadout`) and ignored.
 */
export function collectLoadoutChanges(
	activeDefinitions: readonly AnyToolDefinition[],
	loadout: ToolLoadout,
	report: (toolName: string, error: unknown) => void,
): LoadoutChanges {
	const changes: LoadoutChanges = { descriptions: new Map(), hiddenDeclarations: new Set() };
	for (const definition of activeDefinitions) {
		if (!definition.prepareLoadout) continue;
		try {
			const answer = definition.prepareLoadout(loadout);
			for (const [name, description] of Object.entries(answer?.descriptions ?? {})) {
				changes.descriptions.set(name, description);
			}
			for (const name of answer?.hiddenDeclarations ?? []) changes.hiddenDeclarations.add(name);
		} catch (error) {
			report(definition.name, error);
		}
	}
	return changes;
}
