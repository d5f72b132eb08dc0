import { convertBmpToPng } from "./bmp-to-png.js";
import { imageDimensions } from "./image-size.js";
import { decodePng, downscale, encodeRgbaPng } from "./png-codec.js";

export interface ImageResizeLimits {
	maxWidth?: number;
	maxHeight?: number;
	maxBytes?: number;
}

export const DEFAULT_IMAGE_LIMITS = { maxWidth: 2000, maxHeight: 2000, maxBytes: 4.5 * 1024 * 1024 };

export interface ProcessedImage {
	data: Buffer;
	mimeType: string;
	/** Lines appended to the `Read image file [...]` note. */
	hints: string[];
}

/**
 * Prepares an image for the model: BMP becomes PNG, and when auto-resize is on an image beyond
 * the limits is scaled down (PNG only: other formats are sent as they are when small enough).
 * Throws when the image cannot be made acceptable.
 */
export function processImage(
	bytes: Buffer,
	mimeType: string,
	autoResize: boolean,
	limits: ImageResizeLimits | undefined,
): ProcessedImage {
	const hints: string[] = [];
	let data = bytes;
	let type = mimeType;
	if (mimeType === "image/bmp") {
		const converted = convertBmpToPng(bytes);
		data = converted.png;
		type = "image/png";
		hints.push(`Converted from image/bmp to image/png (${converted.width}x${converted.height}).`);
	}
	if (!autoResize) return { data, mimeType: type, hints };

	const { maxWidth, maxHeight, maxBytes } = { ...DEFAULT_IMAGE_LIMITS, ...limits };
	const size = imageDimensions(data, type);
	const tooLarge = size !== undefined && (size.width > maxWidth || size.height > maxHeight);
	if (!tooLarge && data.length < maxBytes) return { data, mimeType: type, hints };
	if (type !== "image/png" || !size) {
		if (data.length >= maxBytes)
			throw new Error(`Image is too large to send (${data.length} bytes) and cannot be resized`);
		hints.push(
			`Image is ${size?.width}x${size?.height}, larger than ${maxWidth}x${maxHeight}; it was sent without resizing.`,
		);
		return { data, mimeType: type, hints };
	}

	const fitted = fitPng(data, maxWidth, maxHeight, maxBytes);
	hints.push(dimensionNote(fitted));
	return { data: fitted.data, mimeType: "image/png", hints };
}

export interface FittedPng {
	data: Buffer;
	width: number;
	height: number;
	originalWidth: number;
	originalHeight: number;
}

/** Scales a PNG down until it fits the box and is under `maxBytes` (or is 1x1). */
export function fitPng(png: Buffer, maxWidth: number, maxHeight: number, maxBytes: number): FittedPng {
	const decoded = decodePng(png);
	let scale = Math.min(1, maxWidth / decoded.width, maxHeight / decoded.height);
	for (;;) {
		const width = Math.max(1, Math.floor(decoded.width * scale));
		const height = Math.max(1, Math.floor(decoded.height * scale));
		const resized = encodeRgbaPng(downscale(decoded, width, height));
		if (resized.length < maxBytes || (width === 1 && height === 1)) {
			return { data: resized, width, height, originalWidth: decoded.width, originalHeight: decoded.height };
		}
		scale *= 0.75;
	}
}

/** The note that tells the model how the coordinates of a resized image map to the original. */
export function dimensionNote(image: Omit<FittedPng, "data">): string {
	const factor = (image.originalWidth / image.width).toFixed(2);
	return `[Image: original ${image.originalWidth}x${image.originalHeight}, displayed at ${image.width}x${image.height}. Multiply coordinates by ${factor} to map to original image.]`;
}
