import type { TranscriptContext } from "../types/context.js";
import type { Message, SystemMessage } from "../types/messages.js";
import type { Tool } from "../types/tools.js";
import { contentText } from "../utils/content-text.js";
import { getSystemMessageText } from "./render.js";

type Entry = { readonly role: string };

export function isSystemMessage(message: Entry): message is SystemMessage {
	return message.role === "system";
}

/** Applies one system message's tool patch: removals first, then additions (insert or replace). */
export function applyToolPatch(tools: Map<string, Tool>, message: SystemMessage): void {
	for (const ref of message.toolsRemoved ?? []) tools.delete(ref.name);
	for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
}

/** The tool set after replaying every system message in order; other roles are ignored. */
export function getCurrentTools(messages: readonly Entry[]): Tool[] {
	const tools = new Map<string, Tool>();
	for (const message of messages) if (isSystemMessage(message)) applyToolPatch(tools, message);
	return [...tools.values()];
}

/** One system message equivalent to replaying all of them, or undefined when there is none. */
export function getCurrentSystemMessage(messages: readonly Entry[]): SystemMessage | undefined {
	let first: SystemMessage | undefined;
	const contents: string[] = [];
	const sections = new Map<string, string>();
	const tools = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		first ??= message;
		const text = contentText(message.content);
		if (text.length > 0) contents.push(text);
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
		applyToolPatch(tools, message);
	}
	if (!first) return undefined;
	const result: SystemMessage = { role: "system", content: contents.join("\n\n"), timestamp: first.timestamp ?? 0 };
	if (sections.size > 0) result.sections = Object.fromEntries(sections);
	if (tools.size > 0) result.toolsAdded = [...tools.values()];
	return result;
}

/** The replayed system prompt text, or `""`. */
export function getCurrentSystemPrompt(messages: readonly Entry[]): string {
	return getSystemMessageText(getCurrentSystemMessage(messages));
}

/** The system message at the head of a transcript (the replayed prompt and tools), if there is one. */
export function getInitialSystemMessage(messages: readonly Entry[]): SystemMessage | undefined {
	const head = messages[0];
	return head && isSystemMessage(head) ? head : undefined;
}

/** The transcript without its leading system message. */
export function withoutInitialSystemMessage<T extends Entry>(messages: readonly T[]): T[] {
	return getInitialSystemMessage(messages) ? messages.slice(1) : [...messages];
}

/** One leading system message holding the replayed prompt and tools; later system messages are dropped. */
export function collapseSystemMessages(context: TranscriptContext): TranscriptContext {
	const head = getCurrentSystemMessage(context.messages);
	const rest = context.messages.filter((message) => !isSystemMessage(message));
	const messages: Message[] = head ? [head, ...rest] : rest;
	return { ...context, messages } as TranscriptContext;
}

/** The transcript an adapter sends: unchanged when mid-conversation system messages are supported. */
export function resolveTranscript(
	context: TranscriptContext,
	supportsMidConvo: boolean | undefined,
): TranscriptContext {
	return supportsMidConvo ? context : collapseSystemMessages(context);
}
