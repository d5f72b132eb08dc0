import type { Message } from "@tau/ai";
import { contentText } from "../session/messages.js";

const TOOL_RESULT_LIMIT = 2000;

/** Cuts at `limit` UTF-16 units without splitting a surrogate pair. */
function truncate(text: string, limit: number): string {
	if (text.length <= limit) return text;
	let end = limit;
	const code = text.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return `${text.slice(0, end)}\n\n[... ${text.length - end} more characters truncated]`;
}

/**
 * A transcript as labelled prose for the summarizer, so the model reads it instead of continuing it.
 * Thinking is left out: it can be larger than the live context.
 */
export function serializeConversation(messages: readonly Message[]): string {
	const parts: string[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const text = contentText(message.content, "\n");
			if (text) parts.push(`[User]: ${text}`);
		} else if (message.role === "assistant") {
			const text = contentText(message.content, "\n");
			if (text) parts.push(`[Assistant]: ${text}`);
			const calls = message.content.filter((block) => block.type === "toolCall");
			if (calls.length > 0) {
				const rendered = calls.map((call) => {
					const args = Object.entries(call.arguments ?? {}).map(
						([key, value]) => `${key}=${JSON.stringify(value)}`,
					);
					return `${call.name}(${args.join(", ")})`;
				});
				parts.push(`[Assistant tool calls]: ${rendered.join("; ")}`);
			}
		} else if (message.role === "toolResult") {
			parts.push(`[Tool result]: ${truncate(contentText(message.content, "\n"), TOOL_RESULT_LIMIT)}`);
		}
	}
	return parts.join("\n\n");
}
