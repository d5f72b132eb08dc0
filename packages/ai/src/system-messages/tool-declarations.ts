import type { SystemMessage } from "../types/messages.js";
import type { Tool, ToolReference } from "../types/tools.js";
import { applyToolPatch, isSystemMessage } from "./replay.js";

type Entry = { readonly role: string };

/** A plain, persistable declaration: runtime fields (`execute`, `label`, TypeBox symbols) stripped. */
export function toToolDeclaration(tool: Tool): Tool {
	const declaration: Tool = {
		name: tool.name,
		description: tool.description,
		parameters: JSON.parse(JSON.stringify(tool.parameters ?? {})),
	};
	if (tool.constrainedSampling !== undefined) declaration.constrainedSampling = tool.constrainedSampling;
	return declaration;
}

/**
 * The JSON text of `toToolDeclaration(tool)`, serialised once without building the copy: comparing these
 * is comparing declarations.
 */
function declarationJson(tool: Tool): string {
	return JSON.stringify({
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters ?? {},
		...(tool.constrainedSampling !== undefined ? { constrainedSampling: tool.constrainedSampling } : {}),
	});
}

/** Whether two tool declarations are the same to the model (name, description, schema and sampling constraints). */
export function declarationsEqual(a: Tool, b: Tool): boolean {
	return declarationJson(a) === declarationJson(b);
}

/** The patch that turns tool set `previous` into `current`; a changed definition appears in both lists. */
export function getToolStateChanges(
	previous: readonly Tool[],
	current: readonly Tool[],
): { toolsAdded: Tool[]; toolsRemoved: ToolReference[] } {
	// Each definition is serialised once, then compared by text (the last definition of a name counts).
	const previousJson = previous.map(declarationJson);
	const currentJson = current.map(declarationJson);
	const before = new Map(previous.map((tool, index) => [tool.name, previousJson[index]]));
	const after = new Map(current.map((tool, index) => [tool.name, currentJson[index]]));
	const toolsAdded: Tool[] = [];
	current.forEach((tool, index) => {
		if (before.get(tool.name) !== currentJson[index]) toolsAdded.push(toToolDeclaration(tool));
	});
	const toolsRemoved: ToolReference[] = [];
	previous.forEach((tool, index) => {
		if (after.get(tool.name) !== previousJson[index]) toolsRemoved.push({ name: tool.name });
	});
	return { toolsAdded, toolsRemoved };
}

/** Every definition ever added: last definition per name, in first-declaration order. */
export function getDeclaredTools(messages: readonly Entry[]): Tool[] {
	const declared = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		for (const tool of message.toolsAdded ?? []) declared.set(tool.name, tool);
	}
	return [...declared.values()];
}

/** Index (among system messages) of the last one that removes a tool or re-adds an earlier name; -1 if none. */
function lastNonAdditiveChange(systemMessages: readonly SystemMessage[]): number {
	const seen = new Set<string>();
	let last = -1;
	systemMessages.forEach((message, index) => {
		if ((message.toolsRemoved?.length ?? 0) > 0) last = index;
		for (const tool of message.toolsAdded ?? []) {
			if (seen.has(tool.name)) last = index;
			seen.add(tool.name);
		}
	});
	return last;
}

/** Whether the transcript's system messages ever removed or redefined a tool, rather than only adding tools. */
export function hasNonAdditiveToolChanges(messages: readonly Entry[]): boolean {
	return lastNonAdditiveChange(messages.filter(isSystemMessage)) >= 0;
}

/** @deprecated Use `hasNonAdditiveToolChanges`; true when a name is re-declared with a different definition. */
export function hasToolRedefinitions(messages: readonly Entry[]): boolean {
	const declared = new Map<string, Tool>();
	for (const message of messages) {
		if (!isSystemMessage(message)) continue;
		for (const tool of message.toolsAdded ?? []) {
			const earlier = declared.get(tool.name);
			if (earlier && !declarationsEqual(earlier, tool)) return true;
			declared.set(tool.name, tool);
		}
	}
	return false;
}

/** How far an API can express tool changes in place. */
export type TranscriptToolSupport = "none" | "additions" | "changes";

/**
 * Which tools go in the request's top-level list, and how many leading system messages (among system
 * messages) are folded into it; system message `i >= foldedSystemMessages` carries its additions in place.
 */
export function resolveTranscriptTools(
	messages: readonly Entry[],
	support: TranscriptToolSupport,
): { requestTools: Tool[]; foldedSystemMessages: number } {
	const systemMessages = messages.filter(isSystemMessage);
	if (support === "changes") return { requestTools: [], foldedSystemMessages: 0 };
	const folded =
		support === "none"
			? systemMessages.length
			: Math.max(messages[0] && isSystemMessage(messages[0]) ? 1 : 0, lastNonAdditiveChange(systemMessages) + 1);
	const tools = new Map<string, Tool>();
	for (const message of systemMessages.slice(0, folded)) applyToolPatch(tools, message);
	return { requestTools: [...tools.values()], foldedSystemMessages: folded };
}
