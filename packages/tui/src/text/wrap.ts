import { splitAnsi } from "./ansi.js";
import { isCjkGrapheme } from "./grapheme.js";
import { StyleState } from "./style-state.js";
import { cells, visibleWidth } from "./width.js";

/**
 * Splits a line into tokens: runs of spaces, runs of other graphemes, and each CJK grapheme alone (lines
 * may break between any two of them). Escape sequences join the grapheme after them; trailing ones join
 * the last token.
 */
function tokenize(line: string): string[] {
	const tokens: string[] = [];
	let current = "";
	let currentIsSpace = false;
	let pending = "";
	const flush = () => {
		if (current) tokens.push(current);
		current = "";
	};
	for (const cell of cells(line)) {
		if (cell.escape) {
			pending += cell.text;
			continue;
		}
		const space = cell.text === " ";
		if (!space && isCjkGrapheme(cell.text)) {
			flush();
			tokens.push(pending + cell.text);
			pending = "";
			continue;
		}
		if (current && currentIsSpace !== space) flush();
		current += pending + cell.text;
		pending = "";
		currentIsSpace = space;
	}
	if (pending) {
		if (current) current += pending;
		else if (tokens.length > 0) tokens[tokens.length - 1] += pending;
		else current = pending;
	}
	flush();
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
	for (const token of tokenize(line)) {
		const tokenWidth = visibleWidth(token);
		const whitespace = isWhitespaceToken(token);
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
			if (whitespace) {
				finished += escapesOf(token);
				state.applyText(token);
			}
			wrapped.push(finished + state.lineEndReset());
			current = state.activeCodes() + (whitespace ? "" : token);
			currentWidth = whitespace ? 0 : tokenWidth;
			if (whitespace) continue;
		} else if (whitespace && currentWidth + tokenWidth > width && token.includes("\x1b")) {
			// Whitespace wider than an empty line: keep only its codes, so trimming still works.
			current += escapesOf(token);
		} else {
			current += token;
			currentWidth += tokenWidth;
		}
		state.applyText(token);
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
