import type { Content, Part } from "@google/genai";
import { transformMessages } from "../../transcript/transform-messages.js";
import type { ImageContent, TextContent } from "../../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { sanitizeIdPart } from "../shared/short-hash.js";

/** The major version of a Gemini model id (`gemini-3-pro` → 3), when it is one. */
export function geminiMajorVersion(modelId: string): number | undefined {
	const match = /^gemini(?:-live)?-(\d+)/.exec(modelId.toLowerCase());
	return match ? Number.parseInt(match[1]!, 10) : undefined;
}

/** Models that need (and echo) explicit ids on function calls and responses. */
export function requiresToolCallId(modelId: string): boolean {
	const major = geminiMajorVersion(modelId);
	return modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-") || (major !== undefined && major >= 3);
}

/** Older Gemini models take no images inside a function response; they get them in a user turn after it. */
function takesImagesInFunctionResponse(modelId: string): boolean {
	const major = geminiMajorVersion(modelId);
	return major === undefined || major >= 3;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A signature is replayed only to the model that made it, and only when it is base64 as Google sends it. */
function replayableSignature(sameModel: boolean, signature: string | undefined): string | undefined {
	if (!sameModel || !signature || signature.length % 4 !== 0 || !BASE64.test(signature)) return undefined;
	return signature;
}

function inlineImage(image: ImageContent): Part {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function userParts(content: string | (TextContent | ImageContent)[]): Part[] {
	if (typeof content === "string") return [{ text: sanitizeSurrogates(content) }];
	return content.map((block) =>
		block.type === "text" ? { text: sanitizeSurrogates(block.text) } : inlineImage(block),
	);
}

function modelParts(message: AssistantMessage, model: Model<Api>): Part[] {
	const sameModel = message.provider === model.provider && message.model === model.id;
	const parts: Part[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			const thoughtSignature = replayableSignature(sameModel, block.textSignature);
			if (block.text.trim() === "" && !thoughtSignature) continue;
			parts.push({ text: sanitizeSurrogates(block.text), ...(thoughtSignature ? { thoughtSignature } : {}) });
		} else if (block.type === "thinking") {
			const thoughtSignature = replayableSignature(sameModel, block.thinkingSignature);
			if (block.thinking.trim() === "" && !thoughtSignature) continue;
			// Another model's thoughts cannot be replayed as thoughts; their words stay as text.
			if (sameModel) {
				parts.push({
					thought: true,
					text: sanitizeSurrogates(block.thinking),
					...(thoughtSignature ? { thoughtSignature } : {}),
				});
			} else parts.push({ text: sanitizeSurrogates(block.thinking) });
		} else if (block.type === "toolCall") {
			const thoughtSignature = replayableSignature(sameModel, block.thoughtSignature);
			parts.push({
				functionCall: {
					name: block.name,
					args: block.arguments ?? {},
					...(requiresToolCallId(model.id) ? { id: block.id } : {}),
				},
				...(thoughtSignature ? { thoughtSignature } : {}),
			});
		}
	}
	return parts;
}

function functionResponse(result: ToolResultMessage, model: Model<Api>): { part: Part; trailingImages: Part[] } {
	const text = result.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = model.input.includes("image")
		? result.content.filter((block): block is ImageContent => block.type === "image").map(inlineImage)
		: [];
	const value = text.trim().length > 0 ? sanitizeSurrogates(text) : images.length > 0 ? "(see attached image)" : "";
	const inline = images.length > 0 && takesImagesInFunctionResponse(model.id);
	const part: Part = {
		functionResponse: {
			name: result.toolName,
			response: result.isError ? { error: value } : { output: value },
			...(inline ? { parts: images } : {}),
			...(requiresToolCallId(model.id) ? { id: result.toolCallId } : {}),
		},
	};
	return { part, trailingImages: inline ? [] : images };
}

/**
 * The transcript (its leading system message already taken out as the system instruction) as Gemini
 * `contents`. Tool results of one turn share a single user content, as Gemini expects.
 */
export function convertGoogleContents(messages: Message[], model: Model<Api>): Content[] {
	const normalizeId = (id: string) => (requiresToolCallId(model.id) ? sanitizeIdPart(id).slice(0, 64) : id);
	const contents: Content[] = [];
	for (const message of transformMessages(messages, model, normalizeId)) {
		if (message.role === "user") {
			const parts = userParts(message.content);
			if (parts.length > 0) contents.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = modelParts(message, model);
			if (parts.length > 0) contents.push({ role: "model", parts });
		} else if (message.role === "toolResult") {
			const { part, trailingImages } = functionResponse(message, model);
			const last = contents.at(-1);
			if (last?.role === "user" && last.parts?.some((existing) => existing.functionResponse)) last.parts.push(part);
			else contents.push({ role: "user", parts: [part] });
			if (trailingImages.length > 0)
				contents.push({ role: "user", parts: [{ text: "Tool result image:" }, ...trailingImages] });
		}
	}
	return contents;
}
