import type { SessionManager } from "./manager.js";
import type { SessionEntry } from "./types.js";

/** The custom entry type pi and tau both use for virtual-model router state (spelled as pi writes it). */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

interface VirtualModelStateData {
	provider: string;
	modelId: string;
	state: unknown;
}

/** The router state of a virtual model: the latest matching entry on the given branch. */
export function getVirtualModelState(branch: readonly SessionEntry[], provider: string, modelId: string): unknown {
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i]!;
		if (entry.type !== "custom" || entry.customType !== VIRTUAL_MODEL_STATE_ENTRY) continue;
		const data = entry.data as Partial<VirtualModelStateData> | undefined;
		if (data?.provider === provider && data.modelId === modelId) return data.state;
	}
	return undefined;
}

export function appendVirtualModelState(
	manager: SessionManager,
	provider: string,
	modelId: string,
	state: unknown,
): string {
	return manager.appendCustomEntry<VirtualModelStateData>(VIRTUAL_MODEL_STATE_ENTRY, { provider, modelId, state });
}
