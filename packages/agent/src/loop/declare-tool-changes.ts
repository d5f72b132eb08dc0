import { getCurrentTools, getToolStateChanges, type SystemMessage } from "@tau/ai";
import type { AgentContext } from "../types/context.js";
import type { AgentMessage } from "../types/messages.js";

type ToolChanges = ReturnType<typeof getToolStateChanges>;

/**
 * Keeps the tools declared in the transcript equal to the tools that can execute. The delta goes onto the
 * last pending system message (its own tool fields are only intent: the executable set wins), or onto a
 * new system message placed before the batch.
 */
export function declareToolChanges(context: AgentContext, pending: AgentMessage[]): AgentMessage[] {
	const systemIndex = pending.findLastIndex((message) => message.role === "system");
	const baseline =
		systemIndex < 0
			? pending
			: pending.map((message, index) =>
					index === systemIndex ? withoutToolFields(message as SystemMessage) : message,
				);
	// Executable tools are compared as they are; only the declarations that go out get copied.
	const changes = getToolStateChanges(getCurrentTools([...context.messages, ...baseline]), context.tools ?? []);
	const unchanged = changes.toolsAdded.length === 0 && changes.toolsRemoved.length === 0;
	if (systemIndex >= 0) {
		if (unchanged && !hasToolFields(pending[systemIndex] as SystemMessage)) return pending;
		const declared = { ...(baseline[systemIndex] as SystemMessage), ...toolFields(changes) };
		return baseline.map((message, index) => (index === systemIndex ? declared : message));
	}
	if (unchanged) return pending;
	const declaration: SystemMessage = { role: "system", content: "", ...toolFields(changes), timestamp: Date.now() };
	return [declaration, ...pending];
}

function withoutToolFields(message: SystemMessage): SystemMessage {
	const { toolsAdded: _added, toolsRemoved: _removed, ...rest } = message;
	return rest;
}

function hasToolFields(message: SystemMessage): boolean {
	return (message.toolsAdded?.length ?? 0) > 0 || (message.toolsRemoved?.length ?? 0) > 0;
}

function toolFields(changes: ToolChanges): Pick<SystemMessage, "toolsAdded" | "toolsRemoved"> {
	return {
		...(changes.toolsAdded.length > 0 ? { toolsAdded: changes.toolsAdded } : {}),
		...(changes.toolsRemoved.length > 0 ? { toolsRemoved: changes.toolsRemoved } : {}),
	};
}
