import type { ChatCompletionStreamRequestMessage as Messages } from "@mistralai/mistralai/models/components";
import { getSystemMessageText, renderSystemMessageUpdate } from "../../system-messages/render.js";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { shortHash } from "../shared/short-hash.js";

/** Mistral tool-call ids are exactly nine alphanumeric characters. */
const TOOL_CALL_ID_LENGTH = 9;

function mistralIdCandidate(id: string, attempt: number): string {
	const alphanumeric = id.replace(/[^a-zA-Z0-9]/g, "");
	if (attempt === 0 && alphanumeric.length === TOOL_CALL_ID_LENGTH) return alphanumeric;
	const seed = attempt === 0 ? alphanumeric || id : `${alphanumeric || id}:${attempt}`;
	return shortHash(seed, TOOL_CALL_ID_LENGTH);
}

/** Maps foreign tool-call ids to Mistral's form, one to one within a request (collisions get a new hash). */
function mistralIdNormalizer(): (id: string) => string {
	const byId = new Map<string, string>();
	const owners = new Map<string, string>();
	return (id) => {
		const known = byId.get(id);
		if (known) return known;
		for (let attempt = 0; ; attempt++) {
			const candidate = mistralIdCandidate(id, attempt);
			const owner = owners.get(candidate);
			if (owner === undefined || owner === id) {
				byId.set(id, candidate);
				owners.set(candidate, id);
				return candidate;
			}
		}
	};
}

/** A tool call id from a stream that sent none (by position), in Mistral's form. */
export function fallbackToolCallId(position: number): string {
	return mistralIdCandidate(`toolcall:${position}`, 0);
}

function imageUrl(mimeType: string, data: string): string {
	return `data:${mimeType};base64,${data}`;
}

function assistantMessage(message: AssistantMessage): Messages | undefined {
	const content: (
		| { type: "text"; text: string }
		| { type: "thinking"; thinking: { type: "text"; text: string }[] }
	)[] = [];
	const toolCalls = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim()) content.push({ type: "text", text: sanitizeSurrogates(block.text) });
		} else if (block.type === "thinking") {
			if (block.thinking.trim()) {
				content.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
			}
		} else if (block.type === "toolCall") {
			toolCalls.push({
				id: block.id,
				type: "function" as const,
				function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
				index: 0,
			});
		}
	}
	if (content.length === 0 && toolCalls.length === 0) return undefined;
	return {
		role: "assistant",
		prefix: false,
		...(content.length > 0 ? { content } : {}),
		...(toolCalls.length > 0 ? { toolCalls } : {}),
	};
}

function toolResultText(result: ToolResultMessage, vision: boolean): string {
	const text = result.content
		.filter((part) => part.type === "text")
		.map((part) => sanitizeSurrogates(part.text))
		.join("\n")
		.trim();
	const hasImages = result.content.some((part) => part.type === "image");
	const prefix = result.isError ? "[tool error] " : "";
	if (text)
		return `${prefix}${text}${hasImages && !vision ? "\n[tool image omitted: model does not support images]" : ""}`;
	if (hasImages)
		return `${prefix}${vision ? "(see attached image)" : "(image omitted: model does not support images)"}`;
	return `${prefix}(no tool output)`;
}

function toolMessage(result: ToolResultMessage, vision: boolean): Messages {
	const images = vision ? result.content.filter((part) => part.type === "image") : [];
	return {
		role: "tool",
		toolCallId: result.toolCallId,
		name: result.toolName,
		content: [
			{ type: "text", text: toolResultText(result, vision) },
			...images.map((image) => ({ type: "image_url" as const, imageUrl: imageUrl(image.mimeType, image.data) })),
		],
	};
}

/**
 * The transcript as Mistral chat messages. Mistral takes system messages anywhere when the model says so
 * (otherwise the caller has folded them into the first one); thoughts replay as `thinking` chunks.
 */
export function convertMistralMessages(messages: Message[], model: Model<Api>): Messages[] {
	const vision = model.input.includes("image");
	const normalizeId = mistralIdNormalizer();
	const result: Messages[] = [];
	transformMessages(messages, model, (id) => normalizeId(id)).forEach((message, index) => {
		if (message.role === "system") {
			const text = index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message);
			if (text) result.push({ role: "system", content: sanitizeSurrogates(text) });
		} else if (message.role === "user") {
			if (typeof message.content === "string") {
				result.push({ role: "user", content: sanitizeSurrogates(message.content) });
				return;
			}
			const content = message.content.map((item) =>
				item.type === "text"
					? { type: "text" as const, text: sanitizeSurrogates(item.text) }
					: { type: "image_url" as const, imageUrl: imageUrl(item.mimeType, item.data) },
			);
			if (content.length > 0) result.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const converted = assistantMessage(message);
			if (converted) result.push(converted);
		} else if (message.role === "toolResult") {
			result.push(toolMessage(message, vision));
		}
	});
	return result;
}
