import { isApc, osc8Url, oscTerminator } from "./ansi.js";
import { cells, visibleWidth } from "./width.js";

function pad(text: string, width: number, target: number): string {
	return width < target ? text + " ".repeat(target - width) : text;
}

/** Cuts `text` to `maxWidth` columns on a grapheme boundary, appending `ellipsis` when cut. */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", padToWidth = false): string {
	if (maxWidth <= 0) return "";
	if (text.length === 0) return padToWidth ? " ".repeat(maxWidth) : "";
	const textWidth = visibleWidth(text);
	const ellipsisWidth = visibleWidth(ellipsis);
	if (textWidth <= maxWidth) return padToWidth ? pad(text, textWidth, maxWidth) : text;
	if (ellipsisWidth >= maxWidth) {
		const clipped = truncateToWidth(ellipsis, maxWidth, "", false);
		return padToWidth ? pad(clipped, visibleWidth(clipped), maxWidth) : clipped;
	}
	const budget = maxWidth - ellipsisWidth;
	let kept = "";
	let pending = "";
	let used = 0;
	let link: string | undefined;
	let pendingLink: string | undefined;
	for (const cell of cells(text)) {
		if (cell.escape) {
			pending += cell.text;
			const url = osc8Url(cell.text);
			if (url !== undefined) pendingLink = url ? cell.text : "";
			continue;
		}
		if (used + cell.width > budget) break;
		kept += pending + cell.text;
		pending = "";
		if (pendingLink !== undefined) link = pendingLink || undefined;
		pendingLink = undefined;
		used += cell.width;
	}
	const close = link ? `\x1b]8;;${oscTerminator(link)}` : "";
	const tail = ellipsis === "" ? `${close}\x1b[0m` : `${close}\x1b[0m${ellipsis}\x1b[0m`;
	return padToWidth ? pad(kept + tail, used + ellipsisWidth, maxWidth) : kept + tail;
}

export interface SlicedText {
	text: string;
	width: number;
}

/**
 * The part of `line` covering columns [startCol, startCol + length). Styling sequences before the
 * range are carried in; positional APC sequences before it are not.
 */
export function sliceWithWidth(line: string, startCol: number, length: number, strict = false): SlicedText {
	if (length <= 0) return { text: "", width: 0 };
	const endCol = startCol + length;
	let carried = "";
	let out = "";
	let width = 0;
	let col = 0;
	let started = false;
	for (const cell of cells(line)) {
		if (cell.escape) {
			if (col >= endCol) break;
			if (col < startCol || !started) {
				if (col < startCol && isApc(cell.text)) continue;
				carried += cell.text;
			} else out += cell.text;
			continue;
		}
		if (col >= endCol) break;
		const inside = col >= startCol && (strict ? col + cell.width <= endCol : col < endCol);
		if (inside) {
			if (!started) {
				out = carried + out;
				carried = "";
				started = true;
			}
			out += cell.text;
			width += cell.width;
		}
		col += cell.width;
	}
	return { text: started ? out : "", width };
}

export function sliceByColumn(line: string, startCol: number, length: number, strict = false): string {
	return sliceWithWidth(line, startCol, length, strict).text;
}

/** Pads `line` with spaces to `width` and applies a background function to the whole. */
export function applyBackgroundToLine(line: string, width: number, bgFn: (text: string) => string): string {
	return bgFn(pad(line, visibleWidth(line), width));
}

/** Pads with spaces to `width` (never truncates). */
export function padToWidth(line: string, width: number): string {
	return pad(line, visibleWidth(line), width);
}
