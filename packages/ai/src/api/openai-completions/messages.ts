import { getSystemMessageText, renderSystemMessageUpdate } from "../../system-messages/render.js";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { ImageContent, TextContent, ThinkingContent } from "../../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import type { Tool } from "../../types/tools.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { sanitizeIdPart, shortHash } from "../shared/short-hash.js";
import type { ResolvedCompletionsCompat } from "./compat.js";

/** A Chat Completions message; hosts accept extra fields (reasoning_content, tools on system messages). */
export type ChatMessage = { role: string; [field: string]: unknown };

const MAX_TOOL_CALL_ID = 40;
const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"];
const BRIDGE_TEXT = "I have processed the tool results.";

/**
 * Responses-style `call|item` ids become one sanitized id of at most 40 characters (deterministic, so
 * a call and its result still match); other ids are only truncated for OpenAI itself.
 */
function normalizeCompletionsToolCallId(id: string, model: Model<Api>): string {
	if (id.includes("|")) {
		const [callId = "", itemId = ""] = id.split("|");
		const joined = `${sanitizeIdPart(callId)}_${sanitizeIdPart(itemId)}`;
		if (joined.length <= MAX_TOOL_CALL_ID) return joined;
		return `${sanitizeIdPart(callId).slice(0, MAX_TOOL_CALL_ID - 9)}_${shortHash(id)}`;
	}
	return model.provider === "openai" ? id.slice(0, MAX_TOOL_CALL_ID) : id;
}

function instructionRole(model: Model<Api>, compat: ResolvedCompletionsCompat): "developer" | "system" {
	return model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
}

function imagePart(image: ImageContent) {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function userContent(content: string | (TextContent | ImageContent)[]): unknown {
	if (typeof content === "string") return content.length > 0 ? sanitizeSurrogates(content) : undefined;
	const parts: unknown[] = [];
	for (const block of content) {
		if (block.type === "text") {
			if (block.text.length > 0) parts.push({ type: "text", text: sanitizeSurrogates(block.text) });
		} else if (block.type === "image") parts.push(imagePart(block));
	}
	return parts.length > 0 ? parts : undefined;
}

function parseReasoningDetails(signature: string | undefined): unknown[] | undefined {
	if (!signature?.startsWith("[")) return undefined;
	try {
		const parsed: unknown = JSON.parse(signature);
		return Array.isArray(parsed) ? parsed : undefined;
	} catch {
		return undefined;
	}
}

function convertAssistant(
	message: AssistantMessage,
	model: Model<Api>,
	compat: ResolvedCompletionsCompat,
): ChatMessage | undefined {
	const texts = message.content
		.filter((block): block is TextContent => block.type === "text" && block.text.trim().length > 0)
		.map((block) => sanitizeSurrogates(block.text));
	const thinking = message.content.filter(
		(block): block is ThinkingContent => block.type === "thinking" && !block.redacted,
	);
	const thinkingText = sanitizeSurrogates(
		thinking
			.map((block) => block.thinking)
			.filter((text) => text.trim().length > 0)
			.join("\n\n"),
	);
	const toolCalls = message.content.flatMap((block) =>
		block.type === "toolCall"
			? [
					{
						id: block.id,
						type: "function",
						function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
					},
				]
			: [],
	);
	const nonNull = compat.requiresAssistantAfterToolResult || compat.requiresNonNullAssistantContent;
	const out: ChatMessage = { role: "assistant", content: texts.length > 0 ? texts.join("") : nonNull ? "" : null };
	if (compat.requiresThinkingAsText) {
		if (thinkingText) out.content = [thinkingText, ...texts].map((text) => ({ type: "text", text }));
	} else {
		const details = thinking.map((block) => parseReasoningDetails(block.thinkingSignature)).find(Boolean);
		const fieldName = thinking
			.map((block) => block.thinkingSignature)
			.find((signature) => signature !== undefined && REASONING_FIELDS.includes(signature));
		if (details) out.reasoning_details = details;
		else if (fieldName && thinkingText) out[fieldName] = thinkingText;
	}
	if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && out.reasoning_content === undefined) {
		out.reasoning_content = "";
	}
	if (toolCalls.length > 0) out.tool_calls = toolCalls;
	const hasContent = Array.isArray(out.content) ? out.content.length > 0 : Boolean(out.content);
	if (!hasContent && toolCalls.length === 0) return undefined;
	return out;
}

function toolResultText(result: ToolResultMessage): string {
	const text = result.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	if (text.length > 0) return sanitizeSurrogates(text);
	return result.content.some((block) => block.type === "image") ? "(see attached image)" : "(no tool output)";
}

export function convertCompletionsTool(
	tool: Tool,
	schema: { parameters: Record<string, unknown>; strict: boolean | undefined },
): Record<string, unknown> {
	const fn: Record<string, unknown> = {
		name: tool.name,
		description: sanitizeSurrogates(tool.description),
		parameters: schema.parameters,
	};
	if (schema.strict !== undefined) fn.strict = schema.strict;
	return { type: "function", function: fn };
}

export interface CompletionsMessageOptions {
	compat: ResolvedCompletionsCompat;
	/** System messages (0-based among system messages) from this index on declare their tools in place. */
	inPlaceToolsFrom: number | undefined;
	convertTool: (tool: Tool) => unknown;
}

/** The transcript as Chat Completions messages (docs/design/ai-adapters.md#openai-chat-completions). */
export function convertCompletionsMessages(
	messages: Message[],
	model: Model<Api>,
	options: CompletionsMessageOptions,
): ChatMessage[] {
	const { compat } = options;
	const role = instructionRole(model, compat);
	const vision = model.input.includes("image");
	const transformed = transformMessages(messages, model, (id) => normalizeCompletionsToolCallId(id, model));
	const out: ChatMessage[] = [];
	let systemOrdinal = 0;
	let pendingImages: ImageContent[] = [];
	let afterToolResults = false;
	const bridge = () => out.push({ role: "assistant", content: BRIDGE_TEXT });
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		if (compat.requiresAssistantAfterToolResult) bridge();
		out.push({
			role: "user",
			content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...pendingImages.map(imagePart)],
		});
		pendingImages = [];
		afterToolResults = false;
	};
	transformed.forEach((message, position) => {
		if (message.role !== "toolResult") flushImages();
		if (message.role === "system") {
			const ordinal = systemOrdinal++;
			const added = message.toolsAdded ?? [];
			if (options.inPlaceToolsFrom !== undefined && ordinal >= options.inPlaceToolsFrom && added.length > 0) {
				out.push({ role: "system", tools: added.map(options.convertTool) });
			}
			const text = position === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message);
			if (text.length > 0) out.push({ role, content: sanitizeSurrogates(text) });
		} else if (message.role === "user") {
			const content = userContent(message.content);
			if (content === undefined) return;
			if (afterToolResults && compat.requiresAssistantAfterToolResult) bridge();
			out.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const converted = convertAssistant(message, model, compat);
			if (converted) out.push(converted);
		} else if (message.role === "toolResult") {
			const result: ChatMessage = {
				role: "tool",
				tool_call_id: message.toolCallId,
				content: toolResultText(message),
			};
			if (compat.requiresToolResultName) result.name = message.toolName;
			out.push(result);
			if (vision) pendingImages.push(...message.content.filter((block) => block.type === "image"));
		}
		afterToolResults = message.role === "toolResult";
	});
	flushImages();
	return out;
}
