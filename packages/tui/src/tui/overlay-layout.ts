import { extractSegments } from "../text/segments.js";
import { sliceByColumn, sliceWithWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { Component } from "./component.js";
import { isImageLine } from "./frame.js";

/** A size in cells, or a percentage of the screen such as `"50%"`. */
export type SizeValue = number | `${number}%`;

/** Where an overlay sits on the screen: the centre, a corner or the middle of an edge. */
export type OverlayAnchor =
	| "center"
	| "top-left"
	| "top-right"
	| "bottom-left"
	| "bottom-right"
	| "top-center"
	| "bottom-center"
	| "left-center"
	| "right-center";

/** Space kept between an overlay and each screen edge, in cells. */
export interface OverlayMargin {
	top?: number;
	right?: number;
	bottom?: number;
	left?: number;
}

/** How `showOverlay` sizes and places an overlay: width and height limits, anchor, offsets and margins. */
export interface OverlayOptions {
	width?: SizeValue;
	minWidth?: number;
	maxHeight?: SizeValue;
	anchor?: OverlayAnchor;
	offsetX?: number;
	offsetY?: number;
	row?: SizeValue;
	col?: SizeValue;
	margin?: number | OverlayMargin;
	/** Evaluated every frame. */
	visible?: (termWidth: number, termHeight: number) => boolean;
	/** Do not take focus when shown. */
	nonCapturing?: boolean;
}

/** Where an overlay was drawn: row, column, width and height in cells. */
export interface OverlayBounds {
	row: number;
	col: number;
	width: number;
	height: number;
}

export interface PlacedOverlay extends OverlayBounds {
	lines: readonly string[];
}

/** Percentage strings as a 0..1 fraction; undefined when `value` is not one. */
function percent(value: SizeValue | undefined): number | undefined {
	if (typeof value !== "string") return undefined;
	const m = /^(\d+(?:\.\d+)?)%$/.exec(value);
	return m ? Number(m[1]) / 100 : Number.NaN;
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/** Resolves an overlay's position and size for a `W`×`H` terminal and renders it. */
export function placeOverlay(component: Component, options: OverlayOptions, W: number, H: number): PlacedOverlay {
	const m =
		typeof options.margin === "number"
			? { top: options.margin, right: options.margin, bottom: options.margin, left: options.margin }
			: (options.margin ?? {});
	const top = Math.max(0, m.top ?? 0);
	const right = Math.max(0, m.right ?? 0);
	const bottom = Math.max(0, m.bottom ?? 0);
	const left = Math.max(0, m.left ?? 0);
	const availW = Math.max(1, W - left - right);
	const availH = Math.max(1, H - top - bottom);

	let width: number;
	const wp = percent(options.width);
	if (typeof options.width === "number") width = options.width;
	else if (wp !== undefined && !Number.isNaN(wp)) width = Math.floor(W * wp);
	else width = Math.min(80, availW);
	if (options.minWidth !== undefined) width = Math.max(width, options.minWidth);
	width = clamp(width, 1, availW);

	let maxHeight = availH;
	if (options.maxHeight !== undefined) {
		const hp = percent(options.maxHeight);
		const raw = typeof options.maxHeight === "number" ? options.maxHeight : Math.floor(H * (hp ?? 1));
		maxHeight = clamp(Number.isNaN(raw) ? availH : raw, 1, availH);
	}
	const lines = component.render(width).slice(0, maxHeight);
	const height = lines.length;

	const anchor = options.anchor ?? "center";
	let row: number;
	const rp = percent(options.row);
	if (typeof options.row === "number") row = options.row;
	else if (rp !== undefined && !Number.isNaN(rp)) row = top + Math.floor((availH - height) * rp);
	else if (anchor.startsWith("top")) row = top;
	else if (anchor.startsWith("bottom")) row = top + availH - height;
	else row = top + Math.floor((availH - height) / 2);

	let col: number;
	const cp = percent(options.col);
	if (typeof options.col === "number") col = options.col;
	else if (cp !== undefined && !Number.isNaN(cp)) col = left + Math.floor((availW - width) * cp);
	else if (anchor.endsWith("left")) col = left;
	else if (anchor.endsWith("right")) col = left + availW - width;
	else col = left + Math.floor((availW - width) / 2);

	row = clamp(row + (options.offsetY ?? 0), top, Math.max(top, H - bottom - height));
	col = clamp(col + (options.offsetX ?? 0), left, Math.max(left, W - right - width));
	return { row, col, width, height, lines };
}

const SEGMENT_RESET = "\x1b[0m\x1b]8;;\x07";

/** Splices an overlay line into a base line at column `col`, keeping wide characters whole. */
export function compositeTuiLine(
	base: string,
	overlay: string,
	col: number,
	width: number,
	totalWidth: number,
): string {
	const { before, beforeWidth, after, afterWidth } = extractSegments(
		base,
		col,
		col + width,
		totalWidth - col - width,
		true,
	);
	let fitted = overlay;
	let overlayWidth = visibleWidth(overlay);
	if (overlayWidth > width) {
		const cut = sliceWithWidth(overlay, 0, width, true);
		fitted = cut.text;
		overlayWidth = cut.width;
	}
	let line =
		before +
		" ".repeat(col - beforeWidth) +
		SEGMENT_RESET +
		fitted +
		" ".repeat(width - overlayWidth) +
		SEGMENT_RESET +
		after;
	const used = col + width + afterWidth;
	const baseWidth = visibleWidth(base);
	if (used < Math.min(baseWidth, totalWidth)) line += " ".repeat(Math.min(baseWidth, totalWidth) - used);
	return visibleWidth(line) > totalWidth ? sliceByColumn(line, 0, totalWidth, true) : line;
}

/** Composites overlays (in the given order, later on top) into the frame's visible area. */
export function compositeOverlays(
	lines: readonly string[],
	overlays: readonly PlacedOverlay[],
	W: number,
	H: number,
): string[] {
	let lowest = 0;
	for (const o of overlays) lowest = Math.max(lowest, o.row + o.height);
	const out = [...lines];
	const targetLength = Math.max(out.length, H, lowest);
	while (out.length < targetLength) out.push("");
	const viewportStart = Math.max(0, out.length - H);
	stripCoveredImages(out, overlays, viewportStart);
	for (const o of overlays) {
		for (let i = 0; i < o.lines.length; i++) {
			const index = viewportStart + o.row + i;
			const base = out[index] ?? "";
			if (isImageLine(base)) continue;
			out[index] = compositeTuiLine(base, o.lines[i]!, o.col, o.width, W);
		}
	}
	return out;
}

const KITTY_PLACEMENT = /\x1b_G[^\x1b]*?(?:\x1b\\)/g;

/** Terminals draw images above text, so an image under an overlay is left out for that frame. */
function stripCoveredImages(lines: string[], overlays: readonly PlacedOverlay[], viewportStart: number): void {
	for (let i = viewportStart; i < lines.length; i++) {
		const line = lines[i]!;
		if (!line.includes("\x1b_G")) continue;
		const rows = Number(/[,;]r=(\d+)/.exec(line)?.[1] ?? 1);
		const cols = Number(/[,;]c=(\d+)/.exec(line)?.[1] ?? Number.MAX_SAFE_INTEGER);
		const top = i - viewportStart;
		const covered = overlays.some(
			(o) => o.row < top + rows && o.row + o.height > top && o.col < cols && o.col + o.width > 0,
		);
		if (covered) lines[i] = line.replace(KITTY_PLACEMENT, "");
	}
}
