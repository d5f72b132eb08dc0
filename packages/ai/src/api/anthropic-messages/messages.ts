import type {
	ContentBlockParam,
	ImageBlockParam,
	MessageParam,
	TextBlockParam,
	ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import { renderSystemMessageUpdate } from "../../system-messages/render.js";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { ImageContent, TextContent } from "../../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { sanitizeIdPart } from "../shared/short-hash.js";

const ERROR_IMAGE_PLACEHOLDER = "(image attached after the tool results)";

/** Anthropic tool-use ids allow only `[a-zA-Z0-9_-]`, at most 64 characters. */
function normalizeAnthropicToolCallId(id: string): string {
	return sanitizeIdPart(id).slice(0, 64);
}

function isBlank(text: string): boolean {
	return text.trim().length === 0;
}

function imageBlock(image: ImageContent): ImageBlockParam {
	return {
		type: "image",
		source: { type: "base64", media_type: image.mimeType as "image/png", data: image.data },
	};
}

function textBlock(text: string): TextBlockParam {
	return { type: "text", text: sanitizeSurrogates(text) };
}

function userContent(content: string | (TextContent | ImageContent)[]): MessageParam["content"] | undefined {
	if (typeof content === "string") return isBlank(content) ? undefined : sanitizeSurrogates(content);
	const blocks: ContentBlockParam[] = [];
	for (const block of content) {
		if (block.type === "text") {
			if (!isBlank(block.text)) blocks.push(textBlock(block.text));
		} else if (block.type === "image") blocks.push(imageBlock(block));
	}
	return blocks.length > 0 ? blocks : undefined;
}

function assistantContent(
	message: AssistantMessage,
	model: Model<Api>,
	wireName: (name: string) => string,
): ContentBlockParam[] {
	const allowEmptySignature =
		model.compat && "allowEmptySignature" in model.compat && model.compat.allowEmptySignature;
	const blocks: ContentBlockParam[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (!isBlank(block.text)) blocks.push(textBlock(block.text));
		} else if (block.type === "thinking") {
			if (block.redacted) {
				blocks.push({ type: "redacted_thinking", data: block.thinkingSignature ?? "" });
			} else if (block.thinkingSignature) {
				blocks.push({
					type: "thinking",
					thinking: sanitizeSurrogates(block.thinking),
					signature: block.thinkingSignature,
				});
			} else if (!isBlank(block.thinking)) {
				// Unsigned thinking cannot be replayed as thinking; keep the words as text instead.
				blocks.push(
					allowEmptySignature
						? { type: "thinking", thinking: sanitizeSurrogates(block.thinking), signature: "" }
						: textBlock(block.thinking),
				);
			}
		} else if (block.type === "toolCall") {
			blocks.push({ type: "tool_use", id: block.id, name: wireName(block.name), input: block.arguments ?? {} });
		}
	}
	return blocks;
}

/** One `tool_result` block, plus the images of an error result that must travel after all results. */
function toolResultBlock(result: ToolResultMessage): { block: ToolResultBlockParam; deferredImages: ImageContent[] } {
	const deferredImages: ImageContent[] = [];
	const parts: (TextBlockParam | ImageBlockParam)[] = [];
	let previousWasImage = false;
	for (const item of result.content) {
		if (item.type === "text") {
			parts.push(textBlock(item.text));
			previousWasImage = false;
		} else if (item.type === "image") {
			if (result.isError) {
				// Anthropic rejects images inside error results: a placeholder per run, images moved after.
				deferredImages.push(item);
				if (!previousWasImage) parts.push(textBlock(ERROR_IMAGE_PLACEHOLDER));
			} else parts.push(imageBlock(item));
			previousWasImage = true;
		}
	}
	const hasImage = parts.some((part) => part.type === "image");
	let content: ToolResultBlockParam["content"];
	if (!hasImage) content = sanitizeSurrogates(parts.map((part) => (part as TextBlockParam).text).join("\n"));
	else if (parts.every((part) => part.type === "image")) content = [textBlock("(see attached image)"), ...parts];
	else content = parts;
	return {
		block: { type: "tool_result", tool_use_id: result.toolCallId, content, is_error: result.isError },
		deferredImages,
	};
}

function toolResultsMessage(results: ToolResultMessage[]): MessageParam {
	const blocks: ContentBlockParam[] = [];
	const trailing: ContentBlockParam[] = [];
	for (const result of results) {
		const { block, deferredImages } = toolResultBlock(result);
		blocks.push(block);
		if (deferredImages.length > 0) {
			trailing.push(
				textBlock(`Images from the error result of tool call ${result.toolCallId} (${result.toolName}):`),
				...deferredImages.map(imageBlock),
			);
		}
	}
	return { role: "user", content: [...blocks, ...trailing] };
}

/**
 * Converts the resolved transcript (without its leading system message) into Anthropic messages.
 * Later system messages are held back until just before the next assistant message, because tool
 * results must directly follow their tool use. `wireName` gives the name a replayed tool call is sent under.
 */
export function convertAnthropicMessages(
	messages: Message[],
	model: Model<Api>,
	wireName: (name: string) => string,
): MessageParam[] {
	const transformed = transformMessages(messages, model, (id) => normalizeAnthropicToolCallId(id));
	const params: MessageParam[] = [];
	let heldSystem: MessageParam[] = [];
	let pendingResults: ToolResultMessage[] = [];
	const flushResults = () => {
		if (pendingResults.length === 0) return;
		params.push(toolResultsMessage(pendingResults));
		pendingResults = [];
	};
	for (const message of transformed) {
		if (message.role !== "toolResult") flushResults();
		if (message.role === "system") {
			const text = renderSystemMessageUpdate(message);
			if (!isBlank(text)) heldSystem.push({ role: "system", content: [textBlock(text)] });
		} else if (message.role === "user") {
			const content = userContent(message.content);
			if (content !== undefined) params.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = assistantContent(message, model, wireName);
			if (content.length === 0) continue;
			params.push(...heldSystem, { role: "assistant", content });
			heldSystem = [];
		} else if (message.role === "toolResult") {
			pendingResults.push(message);
		}
	}
	flushResults();
	params.push(...heldSystem);
	return params;
}
