import { getSystemMessageText, renderSystemMessageUpdate } from "../../system-messages/render.js";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { ImageContent, TextContent, TextSignatureV1 } from "../../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { sanitizeIdPart, shortHash } from "../shared/short-hash.js";

/** A Responses API input item; typed loosely because replayed reasoning items are passed through as is. */
export type ResponsesInputItem = Record<string, unknown>;

const MAX_ID = 64;
/** Providers whose Responses item ids must look like OpenAI's own (`fc_…`). */
const OPENAI_ITEM_ID_PROVIDERS = new Set(["openai", "openai-codex", "opencode"]);

function clampId(id: string): string {
	return id.slice(0, MAX_ID).replace(/_+$/, "");
}

/**
 * Tool-call ids of the form `call|item` keep both parts for OpenAI; the item part of a call made by
 * another provider or API is replaced by a stable `fc_<hash>` (OpenAI rejects foreign item ids).
 */
export function normalizeResponsesToolCallId(id: string, model: Model<Api>, source: AssistantMessage): string {
	const [callId = "", itemId] = id.split("|");
	const call = clampId(sanitizeIdPart(callId));
	if (itemId === undefined) return call;
	if (!OPENAI_ITEM_ID_PROVIDERS.has(model.provider)) return `${call}|${clampId(sanitizeIdPart(itemId))}`;
	const foreign = source.provider !== model.provider || source.api !== model.api;
	let item = foreign ? `fc_${shortHash(itemId, 16)}` : sanitizeIdPart(itemId);
	if (!item.startsWith("fc_")) item = `fc_${item}`;
	return `${call}|${clampId(item)}`;
}

/** Reads a text signature: v1 JSON, or a legacy plain string taken as the item id. */
function parseTextSignature(signature: string | undefined): TextSignatureV1 | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const parsed = JSON.parse(signature) as Partial<TextSignatureV1>;
			if (typeof parsed.id === "string") {
				const result: TextSignatureV1 = { v: 1, id: parsed.id };
				if (parsed.phase === "commentary" || parsed.phase === "final_answer") result.phase = parsed.phase;
				return result;
			}
		} catch {
			// Not JSON after all: fall through to the legacy form.
		}
	}
	return { v: 1, id: signature };
}

export function formatTextSignature(id: string, phase: unknown): string {
	const signature: TextSignatureV1 = { v: 1, id };
	if (phase === "commentary" || phase === "final_answer") signature.phase = phase;
	return JSON.stringify(signature);
}

function imageUrl(image: ImageContent): string {
	return `data:${image.mimeType};base64,${image.data}`;
}

function inputImage(image: ImageContent): ResponsesInputItem {
	return { type: "input_image", detail: "auto", image_url: imageUrl(image) };
}

function userItem(content: string | (TextContent | ImageContent)[]): ResponsesInputItem | undefined {
	const parts: ResponsesInputItem[] = [];
	if (typeof content === "string") {
		if (content.length > 0) parts.push({ type: "input_text", text: sanitizeSurrogates(content) });
	} else {
		for (const block of content) {
			if (block.type === "text" && block.text.length > 0) {
				parts.push({ type: "input_text", text: sanitizeSurrogates(block.text) });
			} else if (block.type === "image") parts.push(inputImage(block));
		}
	}
	return parts.length > 0 ? { role: "user", content: parts } : undefined;
}

function sameModel(message: AssistantMessage, model: Model<Api>): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function assistantItems(message: AssistantMessage, model: Model<Api>, messageIndex: number): ResponsesInputItem[] {
	const items: ResponsesInputItem[] = [];
	const same = sameModel(message, model);
	const sameProviderOtherModel = !same && message.provider === model.provider && message.api === model.api;
	message.content.forEach((block, blockIndex) => {
		if (block.type === "thinking") {
			if (!block.thinkingSignature) return;
			try {
				items.push(JSON.parse(block.thinkingSignature) as ResponsesInputItem);
			} catch {
				// A signature that is not a reasoning item cannot be replayed; the reasoning is dropped.
			}
		} else if (block.type === "text") {
			if (block.text.trim().length === 0) return;
			const signature = parseTextSignature(block.textSignature);
			let id = signature?.id ?? `msg_${shortHash(`${message.timestamp}:${messageIndex}:${blockIndex}`, 24)}`;
			if (id.length > MAX_ID) id = `msg_${shortHash(id, 32)}`;
			const item: ResponsesInputItem = {
				type: "message",
				role: "assistant",
				content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
				status: "completed",
				id,
			};
			if (signature?.phase) item.phase = signature.phase;
			items.push(item);
		} else if (block.type === "toolCall") {
			const [callId = "", itemId] = block.id.split("|");
			const item: ResponsesInputItem = {
				type: "function_call",
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments ?? {}),
			};
			// An item id is only valid for the model that produced it, and only in OpenAI's `fc_` form.
			if (itemId?.startsWith("fc_") && !sameProviderOtherModel) item.id = itemId;
			if (same && block.namespace !== undefined) item.namespace = block.namespace;
			items.push(item);
		}
	});
	return items;
}

function toolResultItem(result: ToolResultMessage, vision: boolean): ResponsesInputItem {
	const [callId = ""] = result.toolCallId.split("|");
	const text = result.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = result.content.filter((block): block is ImageContent => block.type === "image");
	let output: unknown;
	if (vision && images.length > 0) {
		output = [...(text ? [{ type: "input_text", text: sanitizeSurrogates(text) }] : []), ...images.map(inputImage)];
	} else if (text) output = sanitizeSurrogates(text);
	else output = images.length > 0 ? "(see attached image)" : "(no tool output)";
	return { type: "function_call_output", call_id: callId, output };
}

export function responsesInstructionRole(model: Model<Api>, supportsDeveloperRole: boolean): "developer" | "system" {
	return model.reasoning && supportsDeveloperRole ? "developer" : "system";
}

/** The transcript as Responses input items (docs/design/ai-adapters.md#openai-responses). */
export function convertResponsesInput(
	messages: Message[],
	model: Model<Api>,
	role: "developer" | "system",
): ResponsesInputItem[] {
	const vision = model.input.includes("image");
	const transformed = transformMessages(messages, model, normalizeResponsesToolCallId);
	const items: ResponsesInputItem[] = [];
	transformed.forEach((message, index) => {
		if (message.role === "system") {
			const text = index === 0 ? getSystemMessageText(message) : renderSystemMessageUpdate(message);
			if (text.length > 0) items.push({ role, content: sanitizeSurrogates(text) });
		} else if (message.role === "user") {
			const item = userItem(message.content);
			if (item) items.push(item);
		} else if (message.role === "assistant") {
			items.push(...assistantItems(message, model, index));
		} else if (message.role === "toolResult") {
			items.push(toolResultItem(message, vision));
		}
	});
	return items;
}
