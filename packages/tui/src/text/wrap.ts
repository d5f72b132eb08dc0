import { escapeLength, splitAnsi } from "./ansi.js";
import { graphemes, graphemeWidth, isCjkGrapheme } from "./grapheme.js";
import { StyleState } from "./style-state.js";
import { cells, visibleWidth } from "./width.js";

/** A run of spaces, a run of other text, or one CJK grapheme; escapes before a grapheme join its token. */
interface Token {
	/** The token as it appears in the line: escape sequences and graphemes, in order. */
	text: string;
	width: number;
	space: boolean;
	/** A CJK grapheme is a token of its own (lines may break between any two). */
	cjk: boolean;
	escapes: boolean;
}

const isPrintableAscii = (code: number) => code >= 0x20 && code <= 0x7e;

/** Printable ASCII not followed by anything that could join it into a larger grapheme. */
function isAsciiCell(line: string, i: number): boolean {
	return isPrintableAscii(line.charCodeAt(i)) && (i + 1 >= line.length || line.charCodeAt(i + 1) < 0x80);
}

/**
 * Splits a line into tokens. Printable ASCII is measured in place; only other text goes through
 * grapheme segmentation, which is what makes long streamed paragraphs cheap to wrap.
 */
function tokenize(line: string): Token[] {
	const tokens: Token[] = [];
	let current: Token | undefined;
	/** Start of the escape sequences waiting for the next grapheme, or -1. */
	let pending = -1;
	const add = (start: number, end: number, width: number, space: boolean, cjk: boolean) => {
		const from = pending >= 0 ? pending : start;
		if (!current || current.space !== space || cjk || current.cjk) {
			current = { text: line.slice(from, end), width, space, cjk, escapes: pending >= 0 };
			tokens.push(current);
		} else {
			current.text += line.slice(from, end);
			current.width += width;
			if (pending >= 0) current.escapes = true;
		}
		pending = -1;
	};
	let i = 0;
	while (i < line.length) {
		const code = line.charCodeAt(i);
		const sequence = code === 0x1b ? escapeLength(line, i) : 0;
		if (sequence > 0) {
			if (pending < 0) pending = i;
			i += sequence;
			continue;
		}
		if (isAsciiCell(line, i)) {
			// A run of spaces or of other printable ASCII: one piece of a token, one column each.
			const space = code === 0x20;
			let end = i + 1;
			while (end < line.length && isAsciiCell(line, end) && (line.charCodeAt(end) === 0x20) === space) end++;
			add(i, end, end - i, space, false);
			i = end;
			continue;
		}
		// Other text up to the next escape sequence: segmented into graphemes.
		let end = i + 1;
		while (end < line.length && line.charCodeAt(end) !== 0x1b) end++;
		let at = i;
		for (const g of graphemes(line.slice(i, end))) {
			const space = g === " ";
			add(at, at + g.length, graphemeWidth(g), space, !space && isCjkGrapheme(g));
			at += g.length;
		}
		i = end;
	}
	if (pending >= 0) {
		if (current) {
			current.text += line.slice(pending);
			current.escapes = true;
		} else tokens.push({ text: line.slice(pending), width: 0, space: false, cjk: false, escapes: true });
	}
	return tokens;
}

/** The escape sequences of a token's text, in order. */
function escapesOf(text: string): string {
	let out = "";
	for (const part of splitAnsi(text)) if (part.escape) out += part.text;
	return out;
}

/** Start of the SGR or OSC 8 sequence that ends at `end` in `line`, or -1. */
function styleSequenceBefore(line: string, end: number): number {
	const last = line.charCodeAt(end - 1);
	if (last === 0x6d) {
		// SGR: ESC [ [0-9;:]* m
		let at = end - 2;
		while (at >= 0 && /[0-9;:]/.test(line[at]!)) at--;
		return at >= 1 && line[at] === "[" && line[at - 1] === "\x1b" ? at - 1 : -1;
	}
	// OSC 8, terminated by BEL or ST: ESC ] 8 ; [^BEL ESC]* (BEL | ESC \)
	const bodyEnd = last === 0x07 ? end - 1 : line.endsWith("\x1b\\", end) ? end - 2 : -1;
	if (bodyEnd < 0) return -1;
	const start = line.lastIndexOf("\x1b", bodyEnd - 1);
	if (start < 0 || !line.startsWith("\x1b]8;", start)) return -1;
	return line.lastIndexOf("\x07", bodyEnd - 1) > start ? -1 : start;
}

/** Right-trims the spaces before the trailing style sequences, keeping those sequences. */
function trimEnd(line: string): string {
	let escapes = line.length;
	for (let start = styleSequenceBefore(line, escapes); start >= 0; start = styleSequenceBefore(line, escapes))
		escapes = start;
	let text = escapes;
	while (text > 0 && line.charCodeAt(text - 1) === 0x20) text--;
	return text === escapes ? line : line.slice(0, text) + line.slice(escapes);
}

/** Feeds the escape sequences of `line` to `state` (no grapheme work: only escapes matter). */
function applyEscapes(line: string, state: StyleState): void {
	let at = line.indexOf("\x1b");
	while (at >= 0) {
		const length = escapeLength(line, at);
		if (length > 0) state.apply(line.slice(at, at + length));
		at = line.indexOf("\x1b", at + Math.max(1, length));
	}
}

function wrapLine(line: string, width: number, state: StyleState): string[] {
	const out: string[] = [];
	if (visibleWidth(line) <= width) {
		applyEscapes(line, state);
		return [line];
	}
	let current = "";
	let currentWidth = 0;
	const finish = () => {
		out.push(trimEnd(current) + state.lineEndReset());
		current = state.activeCodes();
		currentWidth = 0;
	};
	for (const token of tokenize(line)) {
		if (token.space && currentWidth > 0 && currentWidth + token.width > width) {
			// A space at a wrap point is dropped; its escape codes stay on the finished line.
			if (token.escapes) {
				const escapes = escapesOf(token.text);
				current += escapes;
				applyEscapes(escapes, state);
			}
			finish();
			continue;
		}
		if (currentWidth > 0 && currentWidth + token.width > width) finish();
		if (token.width > width) {
			for (const c of cells(token.text)) {
				if (c.escape) {
					current += c.text;
					state.apply(c.text);
					continue;
				}
				if (currentWidth + c.width > width && currentWidth > 0) finish();
				current += c.text;
				currentWidth += c.width;
			}
			continue;
		}
		if (token.space && currentWidth === 0 && out.length > 0) {
			if (token.escapes) {
				const escapes = escapesOf(token.text);
				current += escapes;
				applyEscapes(escapes, state);
			}
			continue;
		}
		current += token.text;
		if (token.escapes) applyEscapes(token.text, state);
		currentWidth += token.width;
	}
	out.push(trimEnd(current));
	return out;
}

/** Word-wraps styled text to `width` columns, re-opening styles and links on each new line. */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	if (text.length === 0) return [""];
	const w = Math.max(1, width);
	const state = new StyleState();
	const result: string[] = [];
	const inputLines = text.split(/\r\n|\r|\n/);
	for (let i = 0; i < inputLines.length; i++) {
		const prefix = i === 0 ? "" : state.activeCodes();
		const wrapped = wrapLine(prefix + inputLines[i]!, w, state);
		for (const line of wrapped) result.push(trimEnd(line));
	}
	return result.length > 0 ? result : [""];
}
