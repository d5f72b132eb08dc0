import {
	type Message as BedrockMessage,
	CachePointType,
	CacheTTL,
	type ContentBlock,
	ConversationRole,
	ImageFormat,
	type SystemContentBlock,
	type ToolResultContentBlock,
	ToolResultStatus,
	type ToolUseBlock,
} from "@aws-sdk/client-bedrock-runtime";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { ImageContent, TextContent } from "../../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import type { CacheRetention } from "../../types/thinking.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { sanitizeIdPart } from "../shared/short-hash.js";
import { hasPromptCaching, isClaude } from "./models.js";

type DocumentType = NonNullable<ToolUseBlock["input"]>;

/** Bedrock rejects blank text blocks where a block is required. */
const EMPTY_TEXT = "(empty)";

const IMAGE_FORMATS: Record<string, ImageFormat> = {
	"image/jpeg": ImageFormat.JPEG,
	"image/jpg": ImageFormat.JPEG,
	"image/png": ImageFormat.PNG,
	"image/gif": ImageFormat.GIF,
	"image/webp": ImageFormat.WEBP,
};

function imageBlock(image: ImageContent): ContentBlock.ImageMember {
	const format = IMAGE_FORMATS[image.mimeType];
	if (!format) throw new Error(`Unknown image type: ${image.mimeType}`);
	return { image: { format, source: { bytes: Buffer.from(image.data, "base64") } } };
}

function textBlock(text: string): ContentBlock.TextMember | undefined {
	const clean = sanitizeSurrogates(text);
	return clean.trim().length === 0 ? undefined : { text: clean };
}

/** A cache point after the block it closes; one hour with long retention. */
export function cachePoint(retention: CacheRetention): ContentBlock.CachePointMember {
	return { cachePoint: { type: CachePointType.DEFAULT, ...(retention === "long" ? { ttl: CacheTTL.ONE_HOUR } : {}) } };
}

/** Tool arguments as a Bedrock document: empty keys are invalid there. */
function toDocument(value: unknown): DocumentType {
	if (Array.isArray(value)) return value.map(toDocument);
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(
			Object.entries(value)
				.filter(([key]) => key.length > 0)
				.map(([key, nested]) => [key, toDocument(nested)]),
		);
	}
	return value as DocumentType;
}

function userBlocks(content: string | (TextContent | ImageContent)[]): ContentBlock[] {
	const blocks: ContentBlock[] = [];
	for (const item of typeof content === "string" ? [{ type: "text" as const, text: content }] : content) {
		const block = item.type === "text" ? textBlock(item.text) : imageBlock(item);
		if (block) blocks.push(block);
	}
	return blocks.length > 0 ? blocks : [{ text: EMPTY_TEXT }];
}

function assistantBlocks(message: AssistantMessage, model: Model<Api>): ContentBlock[] {
	const blocks: ContentBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			const text = textBlock(block.text);
			if (text) blocks.push(text);
		} else if (block.type === "toolCall") {
			blocks.push({ toolUse: { toolUseId: block.id, name: block.name, input: toDocument(block.arguments) } });
		} else if (block.type === "thinking") {
			if (block.redacted) {
				if (block.thinkingSignature) {
					blocks.push({ reasoningContent: { redactedContent: Buffer.from(block.thinkingSignature, "base64") } });
				}
				continue;
			}
			const thinking = sanitizeSurrogates(block.thinking);
			if (thinking.trim().length === 0) continue;
			// Claude replays signed reasoning only; unsigned thoughts travel as text.
			if (!isClaude(model)) blocks.push({ reasoningContent: { reasoningText: { text: thinking } } });
			else if (block.thinkingSignature?.trim()) {
				blocks.push({
					reasoningContent: { reasoningText: { text: thinking, signature: block.thinkingSignature } },
				});
			} else blocks.push({ text: thinking });
		}
	}
	return blocks;
}

function toolResultBlocks(result: ToolResultMessage): ToolResultContentBlock[] {
	const blocks: ToolResultContentBlock[] = [];
	for (const item of result.content) {
		const block = item.type === "text" ? textBlock(item.text) : imageBlock(item);
		if (block) blocks.push(block as ToolResultContentBlock);
	}
	return blocks.length > 0 ? blocks : [{ text: EMPTY_TEXT }];
}

/**
 * The transcript (without its leading system message) as Bedrock messages: consecutive tool results share
 * one user message, and with caching on, a cache point closes the last user message.
 */
export function convertBedrockMessages(
	messages: Message[],
	model: Model<Api>,
	retention: CacheRetention,
): BedrockMessage[] {
	const result: BedrockMessage[] = [];
	const normalizeId = (id: string) => sanitizeIdPart(id).slice(0, 64);
	for (const message of transformMessages(messages, model, normalizeId)) {
		if (message.role === "user") {
			result.push({ role: ConversationRole.USER, content: userBlocks(message.content) });
		} else if (message.role === "assistant") {
			const content = assistantBlocks(message, model);
			if (content.length > 0) result.push({ role: ConversationRole.ASSISTANT, content });
		} else if (message.role === "toolResult") {
			const block: ContentBlock = {
				toolResult: {
					toolUseId: message.toolCallId,
					content: toolResultBlocks(message),
					status: message.isError ? ToolResultStatus.ERROR : ToolResultStatus.SUCCESS,
				},
			};
			const last = result.at(-1);
			if (last?.role === ConversationRole.USER && last.content?.every((item) => "toolResult" in item)) {
				last.content.push(block);
			} else result.push({ role: ConversationRole.USER, content: [block] });
		}
	}
	const last = result.at(-1);
	if (retention !== "none" && hasPromptCaching(model) && last?.role === ConversationRole.USER) {
		last.content?.push(cachePoint(retention));
	}
	return result;
}

/** The system prompt as Bedrock system blocks, with a cache point when the model caches. */
export function bedrockSystem(
	text: string,
	model: Model<Api>,
	retention: CacheRetention,
): SystemContentBlock[] | undefined {
	if (!text) return undefined;
	const blocks: SystemContentBlock[] = [{ text: sanitizeSurrogates(text) }];
	if (retention !== "none" && hasPromptCaching(model)) blocks.push(cachePoint(retention) as SystemContentBlock);
	return blocks;
}
