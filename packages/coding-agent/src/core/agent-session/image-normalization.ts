import type { Api, ImageContent, Model } from "@tau/ai";
import { errorMessage } from "../errors.js";
import { processImage } from "../tools/read/image-processing.js";

const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"]);

/**
 * Prompt images, normalized with the limits of the model that will receive them: unsupported
 * formats converted, oversized images resized (`images.autoResize`), unprocessable ones dropped.
 * Every change is explained by a hint line appended to the text, so the model can map coordinates.
 */
export function normalizePromptImages(
	text: string,
	images: readonly ImageContent[],
	model: Model<Api> | undefined,
	autoResize: boolean,
): { text: string; images: ImageContent[] } {
	const hints: string[] = [];
	const kept: ImageContent[] = [];
	const limits = model?.inputLimits?.images?.resize;
	images.forEach((image, index) => {
		const label = images.length > 1 ? `Image ${index + 1}` : "Image";
		if (!INLINE_TYPES.has(image.mimeType)) {
			hints.push(`[${label} (${image.mimeType}) was dropped: unsupported image format.]`);
			return;
		}
		try {
			const processed = processImage(Buffer.from(image.data, "base64"), image.mimeType, autoResize, limits);
			kept.push({ type: "image", data: processed.data.toString("base64"), mimeType: processed.mimeType });
			hints.push(...processed.hints);
		} catch (error) {
			hints.push(`[${label} was dropped: ${errorMessage(error)}]`);
		}
	});
	return { text: hints.length > 0 ? `${text}\n\n${hints.join("\n")}` : text, images: kept };
}

/**
 * A queued user message with images, normalized in place when it is delivered (its `message_start`)
 * with the limits of the model current at that point. Text-only messages are left alone.
 */
export function normalizeDeliveredImages(
	message: { content: string | (ImageContent | { type: "text"; text: string })[] },
	model: Model<Api> | undefined,
	autoResize: boolean,
): void {
	if (typeof message.content === "string") return;
	const images = message.content.filter((block): block is ImageContent => block.type === "image");
	if (images.length === 0) return;
	const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
	const normalized = normalizePromptImages(text, images, model, autoResize);
	message.content = [{ type: "text", text: normalized.text }, ...normalized.images];
}
