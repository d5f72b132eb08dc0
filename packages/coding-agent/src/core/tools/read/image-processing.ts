import { convertBmpToPng } from "./bmp-to-png.js";
import { imageDimensions } from "./image-size.js";
import { decodePng, downscale, encodeRgbaPng } from "./png-codec.js";

export interface ImageResizeLimits {
	maxWidth?: number;
	maxHeight?: number;
	maxBytes?: number;
}

const DEFAULT_LIMITS = { maxWidth: 2000, maxHeight: 2000, maxBytes: 4.5 * 1024 * 1024 };

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

	const { maxWidth, maxHeight, maxBytes } = { ...DEFAULT_LIMITS, ...limits };
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

	const decoded = decodePng(data);
	let scale = Math.min(1, maxWidth / decoded.width, maxHeight / decoded.height);
	for (;;) {
		const width = Math.max(1, Math.floor(decoded.width * scale));
		const height = Math.max(1, Math.floor(decoded.height * scale));
		const resized = encodeRgbaPng(downscale(decoded, width, height));
		if (resized.length < maxBytes || (width === 1 && height === 1)) {
			const factor = (decoded.width / width).toFixed(2);
			hints.push(
				`[Image: original ${decoded.width}x${decoded.height}, displayed at ${width}x${height}. Multiply coordinates by ${factor} to map to the original image.]`,
			);
			return { data: resized, mimeType: "image/png", hints };
		}
		scale *= 0.75;
	}
}
