import type { TextContent, ThinkingContent, ToolCall } from "../types/content.js";
import type { JsonObject, JsonValue } from "../types/json.js";
import type { AssistantMessage, DeferredHandle, StopReason } from "../types/messages.js";
import { zeroUsage } from "../types/usage.js";

/** A content block a scripted faux answer may contain: text, thinking or a tool call. */
export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

/** Options of `fauxAssistantMessage`: stop reason, error, response id and the other fields of the scripted message. */
export interface FauxAssistantMessageOptions {
	/** Default "stop". */
	stopReason?: StopReason;
	deferred?: DeferredHandle;
	errorMessage?: string;
	responseId?: string;
	/** Default: now. */
	timestamp?: number;
}

function randomSuffix(): string {
	return Math.random().toString(36).slice(2, 10);
}

/** A text block for a scripted faux answer. */
export function fauxText(text: string): TextContent {
	return { type: "text", text };
}

/** A thinking block for a scripted faux answer. */
export function fauxThinking(thinking: string): ThinkingContent {
	return { type: "thinking", thinking };
}

/** A scripted tool call; the id defaults to `tool:<ms>:<random>`. */
export function fauxToolCall(
	name: string,
	args: JsonObject | Record<string, JsonValue>,
	options: { id?: string } = {},
): ToolCall {
	return { type: "toolCall", id: options.id ?? `tool:${Date.now()}:${randomSuffix()}`, name, arguments: args };
}

/** A scripted assistant reply; a string becomes one text block. */
export function fauxAssistantMessage(
	content: string | FauxContentBlock | FauxContentBlock[],
	options: FauxAssistantMessageOptions = {},
): AssistantMessage {
	const blocks = typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content];
	const message: AssistantMessage = {
		role: "assistant",
		content: blocks,
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: zeroUsage(),
		stopReason: options.stopReason ?? "stop",
		timestamp: options.timestamp ?? Date.now(),
	};
	if (options.deferred !== undefined) message.deferred = options.deferred;
	if (options.errorMessage !== undefined) message.errorMessage = options.errorMessage;
	if (options.responseId !== undefined) message.responseId = options.responseId;
	return message;
}
