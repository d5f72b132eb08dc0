import { getSystemMessageText } from "../system-messages/render.js";
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "../types/content.js";
import type { Message } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";
import { calculateContextTokens } from "./cost.js";

const CHARS_PER_TOKEN = 3.5;
const IMAGE_CHARS = 4800;

/** A rough token count of a text (characters / 4), for budgeting before a model reports usage. */
export function estimateTextTokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function blockChars(block: TextContent | ImageContent | ThinkingContent | ToolCall): number {
	switch (block.type) {
		case "text":
			return block.text.length;
		case "image":
			return IMAGE_CHARS;
		case "thinking":
			return block.thinking.length;
		case "toolCall":
			return block.name.length + JSON.stringify(block.arguments ?? {}).length;
	}
}

function messageChars(message: Message): number {
	if (message.role === "system") {
		let chars = getSystemMessageText(message).length;
		if (message.toolsAdded?.length) chars += JSON.stringify(message.toolsAdded).length;
		if (message.toolsRemoved?.length) chars += JSON.stringify(message.toolsRemoved).length;
		return chars;
	}
	const content = message.content ?? [];
	if (typeof content === "string") return content.length;
	let chars = 0;
	for (const block of content) chars += blockChars(block);
	return chars;
}

/** A rough token count of one message (characters / 4; images count a fixed amount), for context budgeting. */
export function estimateMessageTokens(message: Message): number {
	return Math.ceil(messageChars(message) / CHARS_PER_TOKEN);
}

/** An estimate of a transcript's context tokens: the last reported usage plus an estimate of the messages after it. */
export interface ContextTokenEstimate {
	tokens: number;
	/** Context tokens reported by the last usable assistant usage (0 when none). */
	usageTokens: number;
	/** Estimated tokens of the messages after that usage. */
	trailingTokens: number;
	/** Index of the assistant message whose usage was used; -1 when none. */
	lastUsageIndex: number;
}

/**
 * Context size: the last trustworthy provider usage plus estimates of what came after it, or a pure
 * estimate when no usage can be trusted.
 */
export function estimateContextTokens(messages: readonly Message[]): ContextTokenEstimate {
	let lastUsageIndex = -1;
	let latestTimestamp = Number.NEGATIVE_INFINITY;
	messages.forEach((message, index) => {
		if (
			message.role === "assistant" &&
			message.stopReason !== "error" &&
			message.stopReason !== "aborted" &&
			message.usage &&
			calculateContextTokens(message.usage) > 0 &&
			message.timestamp >= latestTimestamp
		) {
			lastUsageIndex = index;
		}
		latestTimestamp = Math.max(latestTimestamp, message.timestamp ?? 0);
	});
	const lastUsage = messages[lastUsageIndex];
	const usageTokens = lastUsage?.role === "assistant" ? calculateContextTokens(lastUsage.usage) : 0;
	let trailingTokens = 0;
	for (let i = lastUsageIndex + 1; i < messages.length; i++)
		trailingTokens += estimateMessageTokens(messages[i] as Message);
	return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex };
}

const MIN_MARGIN = 4096;
const COMFORTABLE_ROOM = 32768;

/** Caps an output budget so that input plus output fits the context window with a safety margin. */
export function clampMaxTokensToContext(
	model: Pick<Model<Api>, "contextWindow">,
	transcript: { messages: readonly Message[] },
	maxTokens: number,
): number {
	if (model.contextWindow <= 0) return Math.max(1, maxTokens);
	const input = estimateContextTokens(transcript.messages).tokens;
	const margin = Math.max(MIN_MARGIN, Math.ceil(input * 0.15));
	let room = model.contextWindow - input - margin;
	if (room < COMFORTABLE_ROOM) room = Math.min(COMFORTABLE_ROOM, model.contextWindow - input - MIN_MARGIN);
	return Math.min(maxTokens, Math.max(1, room));
}
