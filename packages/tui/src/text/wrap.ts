import { escapeLength, splitAnsi } from "./ansi.js";
import { graphemes, isCjkGrapheme } from "./grapheme.js";
import { StyleState } from "./style-state.js";
import { cells, visibleWidth } from "./width.js";

/** A run of spaces, a run of other graphemes, or one CJK grapheme, with the escapes that joined it. */
interface Token {
	/** The token as it appears in the line: escape sequences and graphemes, in order. */
	text: string;
	/** Printable ASCII and escapes only, so `asciiWidth` and `space` already describe it exactly. */
	ascii: boolean;
	/** Columns of the ASCII characters (meaningful when `ascii`). */
	asciiWidth: number;
	space: boolean;
	cjk: boolean;
	escapes: boolean;
}

/** Printable ASCII not followed by anything that could join it into a larger grapheme. */
function isAsciiCell(line: string, i: number): boolean {
	const code = line.charCodeAt(i);
	return code >= 0x20 && code <= 0x7e && (i + 1 >= line.length || line.charCodeAt(i + 1) < 0x80);
}

/**
 * Splits a line into tokens (lines may break between any two). Escape sequences join the grapheme
 * after them; trailing ones join the last token. Printable ASCII is measured in place and only other
 * text goes through grapheme segmentation, which keeps long streamed paragraphs cheap to wrap.
 */
function tokenize(line: string): Token[] {
	const tokens: Token[] = [];
	let current: Token | undefined;
	/** Start of the escape sequences waiting for the next grapheme, or -1. */
	let pending = -1;
	const add = (start: number, end: number, ascii: boolean, space: boolean, cjk: boolean) => {
		const from = pending >= 0 ? pending : start;
		const escapes = pending >= 0;
		pending = -1;
		if (current && current.space === space && !cjk && !current.cjk) {
			current.text += line.slice(from, end);
			current.ascii &&= ascii;
			if (ascii) current.asciiWidth += end - start;
			current.escapes ||= escapes;
			return;
		}
		current = { text: line.slice(from, end), ascii, asciiWidth: ascii ? end - start : 0, space, cjk, escapes };
		tokens.push(current);
	};
	let i = 0;
	while (i < line.length) {
		const sequence = line.charCodeAt(i) === 0x1b ? escapeLength(line, i) : 0;
		if (sequence > 0) {
			if (pending < 0) pending = i;
			i += sequence;
			continue;
		}
		if (isAsciiCell(line, i)) {
			const space = line.charCodeAt(i) === 0x20;
			let end = i + 1;
			while (end < line.length && isAsciiCell(line, end) && (line.charCodeAt(end) === 0x20) === space) end++;
			add(i, end, true, space, false);
			i = end;
			continue;
		}
		// Other text up to the next escape sequence (a control character always ends a grapheme).
		let end = i + 1;
		while (end < line.length && line.charCodeAt(end) !== 0x1b) end++;
		let at = i;
		for (const g of graphemes(line.slice(i, end))) {
			const space = g === " ";
			add(at, at + g.length, false, space, !space && isCjkGrapheme(g));
			at += g.length;
		}
		i = end;
	}
	if (pending >= 0) {
		if (current) {
			current.text += line.slice(pending);
			current.escapes = true;
		} else {
			// Escapes alone count as whitespace: their visible text is empty.
			const text = line.slice(pending);
			tokens.push({ text, ascii: true, asciiWidth: 0, space: true, cjk: false, escapes: true });
		}
	}
	return tokens;
}

/** Whether the visible text of a token is whitespace only (its escape sequences do not count). */
function isWhitespaceToken(token: string): boolean {
	return splitAnsi(token).every((part) => part.escape || part.text.trim() === "");
}

const escapesOf = (text: string) =>
	splitAnsi(text)
		.filter((part) => part.escape)
		.map((part) => part.text)
		.join("");

/** A word wider than the line, cut between graphemes; styles re-open on each new line. */
function breakLongWord(word: string, width: number, state: StyleState): string[] {
	const lines: string[] = [];
	let current = state.activeCodes();
	let currentWidth = 0;
	for (const cell of cells(word)) {
		if (cell.escape) {
			current += cell.text;
			state.apply(cell.text);
			continue;
		}
		const cellWidth = visibleWidth(cell.text);
		if (currentWidth + cellWidth > width) {
			lines.push(current + state.lineEndReset());
			current = state.activeCodes();
			currentWidth = 0;
		}
		current += cell.text;
		currentWidth += cellWidth;
	}
	if (current) lines.push(current);
	return lines.length > 0 ? lines : [""];
}

/** Wraps one line (no newlines) at spaces, breaking words wider than the line. */
function wrapLine(line: string, width: number): string[] {
	if (!line) return [""];
	if (visibleWidth(line) <= width) return [line];
	const wrapped: string[] = [];
	const state = new StyleState();
	let current = "";
	let currentWidth = 0;
	for (const { text: token, ascii, asciiWidth, space, escapes } of tokenize(line)) {
		const tokenWidth = ascii ? asciiWidth : visibleWidth(token);
		const whitespace = ascii ? space : isWhitespaceToken(token);
		if (tokenWidth > width && !whitespace) {
			if (current) wrapped.push(current.trimEnd() + state.lineEndReset());
			const pieces = breakLongWord(token, width, state);
			wrapped.push(...pieces.slice(0, -1));
			current = pieces.at(-1)!;
			currentWidth = visibleWidth(current);
			continue;
		}
		if (currentWidth > 0 && currentWidth + tokenWidth > width) {
			// A space at a wrap point is dropped; its escape codes end the finished line.
			let finished = current.trimEnd();
			if (whitespace && escapes) {
				finished += escapesOf(token);
				state.applyText(token);
			}
			wrapped.push(finished + state.lineEndReset());
			current = state.activeCodes() + (whitespace ? "" : token);
			currentWidth = whitespace ? 0 : tokenWidth;
			if (whitespace) continue;
		} else if (whitespace && currentWidth + tokenWidth > width && escapes) {
			// Whitespace wider than an empty line: keep only its codes, so trimming still works.
			current += escapesOf(token);
		} else {
			current += token;
			currentWidth += tokenWidth;
		}
		if (escapes) state.applyText(token);
	}
	if (current) wrapped.push(current);
	return wrapped.length > 0 ? wrapped.map((line) => line.trimEnd()) : [""];
}

/**
 * Word-wraps styled text to `width` columns. Lines that fit stay as they are; wrapped lines lose
 * trailing whitespace, close underline, strike-through and links at the break and re-open the
 * active style on the next line. Styles also carry over literal newlines.
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	if (!text) return [""];
	const state = new StyleState();
	const result: string[] = [];
	for (const line of text.split(/\r\n|\r|\n/)) {
		const prefix = result.length > 0 ? state.activeCodes() : "";
		result.push(...wrapLine(prefix + line, width));
		state.applyText(line);
	}
	return result.length > 0 ? result : [""];
}
