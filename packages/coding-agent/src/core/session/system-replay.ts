import { contentText, type SessionMessage, type SystemMessage, type ToolDeclaration } from "./messages.js";

/**
 * Replays every system message of a transcript: the first declares the prompt and tools, later ones patch
 * it (section and tool changes). This is what a compaction checkpoint stores.
 */
export function getCurrentSystemMessage(messages: readonly SessionMessage[]): SystemMessage | undefined {
	const contents: string[] = [];
	const sections = new Map<string, string | null>();
	const tools = new Map<string, ToolDeclaration>();
	let timestamp: number | undefined;
	let seen = false;
	for (const message of messages) {
		if (message.role !== "system") continue;
		seen = true;
		timestamp ??= message.timestamp;
		const text = contentText(message.content, "\n");
		if (text !== "") contents.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
		for (const removed of message.toolsRemoved ?? []) tools.delete(removed.name);
		for (const added of message.toolsAdded ?? []) tools.set(added.name, added);
	}
	if (!seen && tools.size === 0) return undefined;
	const replayed: SystemMessage = { role: "system", content: contents.join("\n\n"), timestamp: timestamp ?? 0 };
	if (sections.size > 0) replayed.sections = Object.fromEntries(sections);
	if (tools.size > 0) replayed.toolsAdded = [...tools.values()];
	return replayed;
}

/** The replayed prompt as text: content, then every section, blank-line separated. */
export function renderSystemPrompt(message: SystemMessage | undefined): string {
	if (!message) return "";
	const parts = [contentText(message.content, "\n")];
	for (const value of Object.values(message.sections ?? {})) if (value !== null) parts.push(value);
	return parts.filter((part) => part !== "").join("\n\n");
}
