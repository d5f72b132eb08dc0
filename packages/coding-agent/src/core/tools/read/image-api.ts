import { open } from "node:fs/promises";
import { convertBmpToPng } from "./bmp-to-png.js";
import { detectImageMimeTypeFromBytes, SNIFF_BYTES } from "./image-mime.js";
import { DEFAULT_IMAGE_LIMITS, dimensionNote, fitPng, type ImageResizeLimits } from "./image-processing.js";
import { imageDimensions } from "./image-size.js";

/**
 * The image helpers extensions import (docs/extensions.md), on the read tool's own codecs. tau decodes
 * PNG and BMP only: other formats are passed through when they already fit, and `null` otherwise.
 */

export interface ImageResizeOptions extends ImageResizeLimits {
	/** Accepted for compatibility; tau never re-encodes as JPEG. */
	jpegQuality?: number;
}

/**
 * An image resized to fit a model's limits: the base64 data, its MIME type, old and new dimensions, and whether it
 * changed.
 */
export interface ResizedImage {
	/** Base64 image data. */
	data: string;
	mimeType: string;
	originalWidth: number;
	originalHeight: number;
	width: number;
	height: number;
	wasResized: boolean;
}

/** Scales an image down to fit `maxWidth` x `maxHeight` and `maxBytes`; `null` when it cannot be made to fit. */
export async function resizeImage(
	inputBytes: Uint8Array,
	mimeType: string,
	options: ImageResizeOptions = {},
): Promise<ResizedImage | null> {
	const { maxWidth, maxHeight, maxBytes } = { ...DEFAULT_IMAGE_LIMITS, ...options };
	let bytes: Buffer = Buffer.from(inputBytes);
	let type = mimeType;
	if (type === "image/bmp") {
		bytes = convertBmpToPng(bytes).png;
		type = "image/png";
	}
	const size = imageDimensions(bytes, type);
	if (!size) return null;
	const fits = size.width <= maxWidth && size.height <= maxHeight && bytes.length < maxBytes;
	if (fits) {
		return {
			data: bytes.toString("base64"),
			mimeType: type,
			originalWidth: size.width,
			originalHeight: size.height,
			width: size.width,
			height: size.height,
			wasResized: false,
		};
	}
	if (type !== "image/png") return null;
	const fitted = fitPng(bytes, maxWidth, maxHeight, maxBytes);
	if (fitted.data.length >= maxBytes) return null;
	const { data, ...dimensions } = fitted;
	return {
		data: data.toString("base64"),
		mimeType: "image/png",
		...dimensions,
		wasResized: fitted.width !== size.width || fitted.height !== size.height,
	};
}

/** How coordinates in a resized image map back to the original; undefined when it was not resized. */
export function formatDimensionNote(result: ResizedImage): string | undefined {
	return result.wasResized ? dimensionNote(result) : undefined;
}

/** Base64 PNG of an image (PNG as is, BMP converted); `null` for formats tau cannot decode. */
export async function convertToPng(
	base64Data: string,
	mimeType: string,
): Promise<{ data: string; mimeType: string } | null> {
	if (mimeType === "image/png") return { data: base64Data, mimeType };
	if (mimeType !== "image/bmp") return null;
	try {
		return { data: convertBmpToPng(Buffer.from(base64Data, "base64")).png.toString("base64"), mimeType: "image/png" };
	} catch {
		return null;
	}
}

/** The image type of a file by its leading bytes (never its extension); `null` for anything else. */
export async function detectSupportedImageMimeTypeFromFile(filePath: string): Promise<string | null> {
	const handle = await open(filePath, "r");
	try {
		const buffer = Buffer.alloc(SNIFF_BYTES);
		const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
		return detectImageMimeTypeFromBytes(buffer.subarray(0, bytesRead));
	} finally {
		await handle.close();
	}
}
