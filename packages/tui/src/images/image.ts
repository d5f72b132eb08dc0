import os from "node:os";
import { getCapabilities } from "../capabilities/capabilities.js";
import { getCellDimensions } from "../capabilities/cell-size.js";
import { hyperlink } from "../text/ansi.js";
import { truncateToWidth } from "../text/truncate.js";
import type { Component } from "../tui/component.js";
import { DEFAULT_IMAGE_DIMENSIONS, getImageDimensions, type ImageDimensions } from "./dimensions.js";
import { encodeITerm2, encodeKitty } from "./encoders.js";
import { allocateImageId } from "./render-image.js";

/** Colours of `Image`: the style of the text shown where the terminal cannot draw the image. */
export interface ImageTheme {
	fallbackColor: (text: string) => string;
}

/** Options of `Image`: the largest size in cells, a file name for the fallback text and a fixed image id. */
export interface ImageOptions {
	maxWidthCells?: number;
	maxHeightCells?: number;
	filename?: string;
	imageId?: number;
}

/** Converts non-PNG image data to PNG for Kitty (registered by the application, e.g. with sharp). */
export type ImageTranscoder = (base64: string, mimeType: string) => string | undefined;

let transcoder: ImageTranscoder | undefined;

/** Installs a converter for image formats the terminal cannot show (e.g. to PNG for Kitty); undefined removes it. */
export function setImageTranscoder(fn: ImageTranscoder | undefined): void {
	transcoder = fn;
}

/** The text shown where an image cannot be drawn. */
export function imageFallback(mimeType: string, dimensions?: ImageDimensions, filename?: string): string {
	const parts: string[] = [];
	if (filename) {
		const home = os.homedir();
		const short = filename.startsWith(`${home}/`) ? `~${filename.slice(home.length)}` : filename;
		parts.push(getCapabilities().hyperlinks ? hyperlink(short, `file://${filename}`) : short);
	}
	parts.push(`[${mimeType}]`);
	if (dimensions) parts.push(`${dimensions.widthPx}x${dimensions.heightPx}`);
	return `[Image: ${parts.join(" ")}]`;
}

/** Cell size of an image drawn at most `maxWidth` columns and `maxHeight` rows wide, never enlarged. */
function imageCells(dims: ImageDimensions, maxWidth: number, maxHeight: number): { columns: number; rows: number } {
	const cell = getCellDimensions();
	let columns = Math.max(1, Math.min(maxWidth, Math.ceil(dims.widthPx / cell.widthPx)));
	const rowsFor = (c: number) =>
		Math.max(1, Math.ceil((c * cell.widthPx * dims.heightPx) / dims.widthPx / cell.heightPx));
	while (columns > 1 && rowsFor(columns) > maxHeight) columns--;
	return { columns, rows: Math.min(maxHeight, rowsFor(columns)) };
}

interface ImageLinesOptions extends ImageOptions {
	width: number;
	dimensions: ImageDimensions;
}

/** The lines an image occupies: a protocol sequence plus blank rows, or undefined when not drawable. */
function imageLines(base64: string, mimeType: string, options: ImageLinesOptions): string[] | undefined {
	const protocol = getCapabilities().images;
	if (!protocol) return undefined;
	const dims = options.dimensions;
	const cell = getCellDimensions();
	const maxWidth = Math.max(1, Math.min(options.width - 2, options.maxWidthCells ?? 60));
	const maxHeight = options.maxHeightCells ?? Math.ceil((maxWidth * cell.widthPx) / cell.heightPx);
	const { columns, rows } = imageCells(dims, maxWidth, maxHeight);
	const blanks = Array.from({ length: rows - 1 }, () => "");
	if (protocol === "kitty") {
		const png = mimeType === "image/png" ? base64 : transcoder?.(base64, mimeType);
		if (!png) return undefined;
		const id = options.imageId !== undefined ? { imageId: options.imageId } : {};
		// C=1: the cursor stays put, so the renderer's row bookkeeping is unaffected.
		return [encodeKitty(png, { columns, rows, moveCursor: false, ...id }), ...blanks];
	}
	const sequence = encodeITerm2(base64, {
		width: columns,
		height: "auto",
		...(options.filename ? { name: options.filename } : {}),
	});
	return [...blanks, `${rows > 1 ? `\x1b[${rows - 1}A` : ""}${sequence}`];
}

/** An inline image with a text fallback. */
export class Image implements Component {
	private readonly imageId: number;
	private readonly dimensions: ImageDimensions;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly base64: string,
		private readonly mimeType: string,
		private readonly theme: ImageTheme,
		private readonly options: ImageOptions = {},
		dimensions?: ImageDimensions,
	) {
		this.imageId = options.imageId ?? allocateImageId();
		this.dimensions = dimensions ?? getImageDimensions(base64, mimeType) ?? DEFAULT_IMAGE_DIMENSIONS;
	}

	getImageId(): number {
		return this.imageId;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const drawn = imageLines(this.base64, this.mimeType, {
			...this.options,
			width,
			imageId: this.imageId,
			dimensions: this.dimensions,
		});
		const lines = drawn ?? [
			truncateToWidth(
				this.theme.fallbackColor(imageFallback(this.mimeType, this.dimensions, this.options.filename)),
				width,
			),
		];
		this.cache = { width, lines };
		return lines;
	}
}
