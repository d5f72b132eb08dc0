import { getCapabilities } from "../capabilities/capabilities.js";
import { getCellDimensions } from "../capabilities/cell-size.js";
import type { ImageDimensions } from "./dimensions.js";
import { encodeITerm2, encodeKitty } from "./encoders.js";
import { calculateImageCellSize } from "./image-size.js";

/** Options of `renderImage`: the largest size in cells and whether the aspect ratio is kept. */
export interface ImageRenderOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	/** iTerm2 only; default true. */
	preserveAspectRatio?: boolean;
	/** Kitty image id: drawing again with the same id replaces the image. */
	imageId?: number;
	/** Whether Kitty moves the cursor past the image (default true). */
	moveCursor?: boolean;
}

/** An image encoded for the terminal: the escape sequence and the cells it covers. */
export interface RenderedImage {
	sequence: string;
	columns: number;
	rows: number;
	imageId?: number;
}

/**
 * A random Kitty image id in [1, 2³² − 1]: random rather than counted, so ids from separate module
 * instances (the host and an extension's copy) do not collide.
 */
export function allocateImageId(): number {
	return Math.floor(Math.random() * 0xfffffffe) + 1;
}

/**
 * The terminal sequence drawing an image scaled to `maxWidthCells` (default 80) and the cells it covers,
 * or null when the terminal draws no images. Kitty gets PNG data as is; the caller converts other formats.
 */
export function renderImage(
	base64: string,
	dimensions: ImageDimensions,
	options: ImageRenderOptions = {},
): RenderedImage | null {
	const protocol = getCapabilities().images;
	if (!protocol) return null;
	// Kitty stretches an image to whole cells, so it gets the less distorted of two nearby sizes.
	const size = calculateImageCellSize(
		dimensions,
		options.maxWidthCells ?? 80,
		options.maxHeightCells,
		getCellDimensions(),
		protocol === "kitty",
	);
	if (protocol === "kitty") {
		const sequence = encodeKitty(base64, {
			...size,
			...(options.imageId !== undefined ? { imageId: options.imageId } : {}),
			...(options.moveCursor !== undefined ? { moveCursor: options.moveCursor } : {}),
		});
		return { sequence, ...size, imageId: options.imageId };
	}
	const sequence = encodeITerm2(base64, {
		width: size.columns,
		height: "auto",
		preserveAspectRatio: options.preserveAspectRatio ?? true,
	});
	return { sequence, ...size };
}
