import { isApc, osc8Url, oscTerminator } from "./ansi.js";
import { cells, styledAsciiWidth, visibleWidth } from "./width.js";

const RESET = "\x1b[0m";

function pad(text: string, width: number, target: number): string {
	return width < target ? text + " ".repeat(target - width) : text;
}

function isPrintableAscii(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || code > 0x7e) return false;
	}
	return true;
}

/** The graphemes of `text` that fit in `maxWidth` columns from the start, with the escapes before each. */
function fittingPrefix(text: string, maxWidth: number): SlicedText {
	if (isPrintableAscii(text)) {
		const kept = text.slice(0, Math.max(0, maxWidth));
		return { text: kept, width: kept.length };
	}
	let kept = "";
	let pending = "";
	let width = 0;
	for (const cell of cells(text)) {
		if (cell.escape) {
			pending += cell.text;
			continue;
		}
		if (width + cell.width > maxWidth) break;
		kept += pending + cell.text;
		pending = "";
		width += cell.width;
	}
	return { text: kept, width };
}

/** The OSC 8 close for a link still open at the end of `text`, or "". */
function openLinkClose(text: string): string {
	let link: string | undefined;
	for (const cell of cells(text)) {
		const url = cell.escape ? osc8Url(cell.text) : undefined;
		if (url !== undefined) link = url ? cell.text : undefined;
	}
	return link ? `\x1b]8;;${oscTerminator(link)}` : "";
}

/** A cut line: the kept prefix, an open link closed, a full reset, then the ellipsis (reset after it). */
function cutLine(kept: SlicedText, ellipsis: string, ellipsisWidth: number, maxWidth: number, padded: boolean): string {
	const tail = ellipsis ? `${RESET}${ellipsis}${RESET}` : RESET;
	const line = kept.text + openLinkClose(kept.text) + tail;
	return padded ? pad(line, kept.width + ellipsisWidth, maxWidth) : line;
}

/**
 * Cuts `text` to `maxWidth` columns on a grapheme boundary, appending `ellipsis` when cut; with
 * `padToWidth` the result is filled with spaces to exactly `maxWidth` columns. Never wider than
 * `maxWidth` as `visibleWidth` measures it.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", padToWidth = false): string {
	const line = cutAsPi(text, maxWidth, ellipsis, padToWidth);
	if (!text.includes("\x1b")) return line;
	// The cut measures each run between escapes on its own (as Pi does), but on screen, and for
	// visibleWidth, marks after an escape join the grapheme before it: " " + SGR + a spacing mark is
	// one two-column cluster, not 1 + 1. Only then can the cut line be wider; cut it again narrower.
	let width = visibleWidth(line);
	if (width <= maxWidth) return line;
	let room = maxWidth;
	let clamped = line;
	while (width > maxWidth && room > 0) {
		room -= width - maxWidth;
		clamped = cutAsPi(text, room, ellipsis, false);
		width = visibleWidth(clamped);
	}
	return padToWidth ? pad(clamped, width, maxWidth) : clamped;
}

/** The cut pi-tui 1.6 makes: graphemes measured run by run between escapes. */
function cutAsPi(text: string, maxWidth: number, ellipsis: string, padToWidth: boolean): string {
	if (maxWidth <= 0) return "";
	if (text.length === 0) return padToWidth ? " ".repeat(maxWidth) : "";
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth >= maxWidth) {
		const textWidth = visibleWidth(text);
		if (textWidth <= maxWidth) return padToWidth ? pad(text, textWidth, maxWidth) : text;
		const clipped = fittingPrefix(ellipsis, maxWidth);
		if (clipped.width === 0) return padToWidth ? " ".repeat(maxWidth) : "";
		return cutLine({ text: "", width: 0 }, clipped.text, clipped.width, maxWidth, padToWidth);
	}
	if (isPrintableAscii(text)) {
		if (text.length <= maxWidth) return padToWidth ? pad(text, text.length, maxWidth) : text;
		const budget = maxWidth - ellipsisWidth;
		return cutLine({ text: text.slice(0, budget), width: budget }, ellipsis, ellipsisWidth, maxWidth, padToWidth);
	}
	// A styled ASCII line that fits (most lines drawn) is kept as it is, without splitting it into cells.
	const styledWidth = styledAsciiWidth(text);
	if (styledWidth !== undefined && styledWidth <= maxWidth)
		return padToWidth ? pad(text, styledWidth, maxWidth) : text;
	// Keep the leading graphemes that fit beside the ellipsis; the text is cut only once it overflows.
	const budget = maxWidth - ellipsisWidth;
	let kept = "";
	let keptWidth = 0;
	let pending = "";
	let keeping = true;
	let seen = 0;
	for (const cell of cells(text)) {
		if (cell.escape) {
			pending += cell.text;
			continue;
		}
		if (keeping && keptWidth + cell.width <= budget) {
			kept += pending + cell.text;
			keptWidth += cell.width;
		} else {
			keeping = false;
		}
		pending = "";
		seen += cell.width;
		if (seen > maxWidth) {
			return cutLine({ text: kept, width: keptWidth }, ellipsis, ellipsisWidth, maxWidth, padToWidth);
		}
	}
	return padToWidth ? pad(text, seen, maxWidth) : text;
}

export interface SlicedText {
	text: string;
	width: number;
}

/**
 * The part of `line` covering columns [startCol, startCol + length): graphemes starting in the range
 * (with `strict`, only those also ending in it). Styling sequences before the range are carried in;
 * positional APC sequences before it are not.
 */
export function sliceWithWidth(line: string, startCol: number, length: number, strict = false): SlicedText {
	if (length <= 0) return { text: "", width: 0 };
	const endCol = startCol + length;
	let carried = "";
	let out = "";
	let width = 0;
	let col = 0;
	for (const cell of cells(line)) {
		if (cell.escape) {
			if (col >= startCol && col < endCol) {
				out += carried + cell.text;
				carried = "";
			} else if (col < startCol && !isApc(cell.text)) {
				carried += cell.text;
			}
			continue;
		}
		if (col >= startCol && col < endCol && (!strict || col + cell.width <= endCol)) {
			out += carried + cell.text;
			carried = "";
			width += cell.width;
		}
		col += cell.width;
		if (col >= endCol) break;
	}
	return { text: out, width };
}

/** The part of a styled line between two display columns, keeping its ANSI styles; wide characters are never split. */
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
