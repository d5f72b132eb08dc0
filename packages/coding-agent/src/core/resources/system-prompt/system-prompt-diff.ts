import {
	getCurrentSystemMessage,
	getCurrentTools,
	getToolStateChanges,
	type SystemMessage,
	type Tool,
	toToolDeclaration,
} from "@tau/ai";
import type { SystemPromptSections } from "./system-prompt.js";

/** Sections whose text changed or is new, and `null` for sections that disappeared. */
export function diffSystemPromptSections(
	previous: Readonly<Record<string, string | null>> | undefined,
	current: Readonly<SystemPromptSections>,
): Record<string, string | null> | undefined {
	const patch: Record<string, string | null> = {};
	for (const [name, text] of Object.entries(current)) {
		if (previous?.[name] !== text) patch[name] = text;
	}
	for (const name of Object.keys(previous ?? {})) {
		if (!(name in current)) patch[name] = null;
	}
	return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * The system message to persist before a run: a full message when the transcript has none yet,
 * otherwise a patch with only the changed sections and tools, or undefined when nothing changed
 * (so the provider's cached prompt prefix stays valid).
 */
export function createSystemPromptUpdate(
	transcript: readonly { role: string }[],
	current: { sections: SystemPromptSections; tools: readonly Tool[] },
	timestamp: number,
): SystemMessage | undefined {
	const replayed = getCurrentSystemMessage(transcript);
	if (!transcript.some((message) => message.role === "system")) {
		const message: SystemMessage = { role: "system", content: "", sections: { ...current.sections }, timestamp };
		if (current.tools.length > 0) message.toolsAdded = current.tools.map(toToolDeclaration);
		return message;
	}
	const sections = diffSystemPromptSections(replayed?.sections, current.sections);
	const { toolsAdded, toolsRemoved } = getToolStateChanges(getCurrentTools(transcript), current.tools);
	if (!sections && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
	const message: SystemMessage = { role: "system", content: "", timestamp };
	if (sections) message.sections = sections;
	if (toolsRemoved.length > 0) message.toolsRemoved = toolsRemoved;
	if (toolsAdded.length > 0) message.toolsAdded = toolsAdded;
	return message;
}
