import { escapeLength, splitAnsi, stripTerminalSequences } from "./ansi.js";
import { graphemes, graphemeWidth } from "./grapheme.js";

const CACHE_LIMIT = 512;
const cache = new Map<string, number>();

/** Fast path: printable ASCII, TAB and escape sequences only; undefined when anything else appears. */
function asciiWidth(str: string, tabWidth: number | undefined = 3): number | undefined {
	let width = 0;
	let i = 0;
	while (i < str.length) {
		const c = str.charCodeAt(i);
		if (c === 0x1b) {
			const len = escapeLength(str, i);
			if (len === 0) return undefined;
			i += len;
			continue;
		}
		if (c === 0x09) {
			if (tabWidth === undefined) return undefined;
			width += tabWidth;
		} else if (c >= 0x20 && c <= 0x7e) width += 1;
		else return undefined;
		i++;
	}
	return width;
}

/**
 * Width of a line of printable ASCII and escape sequences (one column per character, whether
 * measured whole or run by run between escapes); undefined for any other line.
 */
export function styledAsciiWidth(str: string): number | undefined {
	return asciiWidth(str, undefined);
}

/** Number of terminal columns `str` occupies; escape sequences count as zero. */
export function visibleWidth(str: string): number {
	if (str.length === 0) return 0;
	const fast = asciiWidth(str);
	if (fast !== undefined) return fast;
	const cached = cache.get(str);
	if (cached !== undefined) {
		cache.delete(str);
		cache.set(str, cached);
		return cached;
	}
	// Escape sequences are removed first: a mark after a colour change still joins the character before it.
	let width = 0;
	for (const g of graphemes(stripTerminalSequences(str.replaceAll("\t", "   ")))) width += graphemeWidth(g);
	cache.set(str, width);
	if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
	return width;
}

/** A unit of a styled line: an escape sequence (width 0) or one grapheme. */
export interface Cell {
	text: string;
	escape: boolean;
	width: number;
}

/** Splits a styled line into escape sequences and graphemes with their widths. */
export function cells(line: string): Cell[] {
	const out: Cell[] = [];
	for (const part of splitAnsi(line)) {
		if (part.escape) {
			out.push({ text: part.text, escape: true, width: 0 });
			continue;
		}
		for (const g of graphemes(part.text)) out.push({ text: g, escape: false, width: graphemeWidth(g) });
	}
	return out;
}
