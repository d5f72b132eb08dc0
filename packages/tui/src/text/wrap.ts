import { isCjkGrapheme } from "./grapheme.js";
import { StyleState } from "./style-state.js";
import { cells, visibleWidth } from "./width.js";

interface Token {
	/** Escape sequences and graphemes, in order. */
	cells: { text: string; escape: boolean; width: number }[];
	width: number;
	space: boolean;
}

/** Runs of spaces, runs of non-space text, and one token per CJK grapheme. Escapes attach forward. */
function tokenize(line: string): Token[] {
	const tokens: Token[] = [];
	let pendingEscapes: Token["cells"] = [];
	let current: Token | undefined;
	for (const cell of cells(line)) {
		if (cell.escape) {
			pendingEscapes.push(cell);
			continue;
		}
		const space = cell.text === " ";
		const cjk = !space && isCjkGrapheme(cell.text);
		if (!current || current.space !== space || cjk || current.cells.some((c) => !c.escape && isCjkGrapheme(c.text))) {
			current = { cells: [], width: 0, space };
			tokens.push(current);
		}
		current.cells.push(...pendingEscapes, cell);
		pendingEscapes = [];
		current.width += cell.width;
	}
	if (pendingEscapes.length > 0) {
		if (current) current.cells.push(...pendingEscapes);
		else tokens.push({ cells: pendingEscapes, width: 0, space: false });
	}
	return tokens;
}

function trimEnd(line: string): string {
	// Right-trim visible spaces while keeping trailing escape sequences.
	return line.replace(/ +((?:\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\))*)$/, "$1");
}

function wrapLine(line: string, width: number, state: StyleState): string[] {
	const out: string[] = [];
	if (visibleWidth(line) <= width) {
		for (const c of cells(line)) if (c.escape) state.apply(c.text);
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
			for (const c of token.cells) {
				if (c.escape) {
					current += c.text;
					state.apply(c.text);
				}
			}
			finish();
			continue;
		}
		if (currentWidth > 0 && currentWidth + token.width > width) finish();
		if (token.width > width) {
			for (const c of token.cells) {
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
			for (const c of token.cells) if (c.escape) state.apply(c.text);
			current += token.cells
				.filter((c) => c.escape)
				.map((c) => c.text)
				.join("");
			continue;
		}
		for (const c of token.cells) {
			current += c.text;
			if (c.escape) state.apply(c.text);
		}
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
