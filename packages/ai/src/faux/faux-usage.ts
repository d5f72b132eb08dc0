import { getSystemMessageText } from "../system-messages/render.js";
import type { AssistantMessage, Message } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";
import type { Usage } from "../types/usage.js";
import { zeroUsage } from "../types/usage.js";
import { calculateCost } from "../usage/cost.js";
import { contentText } from "../utils/content-text.js";

const CHARS_PER_TOKEN = 4;

function tokens(chars: number): number {
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

function messageLine(message: Message): string {
	if (message.role === "system") {
		const tools = message.toolsAdded?.length ? ` ${JSON.stringify(message.toolsAdded)}` : "";
		return `system: ${getSystemMessageText(message)}${tools}`;
	}
	if (message.role === "assistant") return `assistant: ${replyText(message)}`;
	return `${message.role}: ${contentText(message.content ?? [])}`;
}

/** The prompt as the faux provider "sees" it: one line per message. */
export function fauxPromptText(messages: readonly Message[]): string {
	return messages.map(messageLine).join("\n");
}

function replyText(message: AssistantMessage): string {
	return message.content
		.map((block) => {
			if (block.type === "text") return block.text;
			if (block.type === "thinking") return block.thinking;
			return `${block.name} ${JSON.stringify(block.arguments)}`;
		})
		.join("\n");
}

function commonPrefixLength(a: string, b: string): number {
	const limit = Math.min(a.length, b.length);
	let i = 0;
	while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

/**
 * Estimated usage of a faux reply (~4 chars per token). With a session cache, the common prefix with the
 * session's previous prompt is read from cache and the rest written; otherwise everything is plain input.
 */
export function fauxUsage(
	model: Model<Api>,
	prompt: string,
	reply: AssistantMessage,
	previousPrompt: string | undefined,
	cached: boolean,
): Usage {
	const usage = zeroUsage();
	usage.output = tokens(replyText(reply).length);
	if (cached) {
		const prefix = previousPrompt === undefined ? 0 : commonPrefixLength(previousPrompt, prompt);
		usage.cacheRead = tokens(prefix);
		usage.cacheWrite = tokens(prompt.length) - usage.cacheRead;
	} else {
		usage.input = tokens(prompt.length);
	}
	usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
	calculateCost(model, usage);
	return usage;
}
