import { graphemes } from "../../text/grapheme.js";
import { visibleWidth } from "../../text/width.js";
import { graphemeLengthBefore } from "../editing/graphemes.js";
import { findMarkers } from "./paste-markers.js";

/** One row of the editor: a slice [start, end) of a logical line. */
export interface VisualLine {
	line: number;
	start: number;
	end: number;
}

interface Unit {
	start: number;
	end: number;
	width: number;
	space: boolean;
}

/** Graphemes of a line, with each paste marker merged into one atomic unit. */
function units(text: string, pastes: ReadonlyMap<number, string>): Unit[] {
	const markers = findMarkers(text, pastes);
	const out: Unit[] = [];
	let offset = 0;
	for (const g of graphemes(text)) {
		const start = offset;
		offset += g.length;
		const marker = markers.find((m) => start >= m.start && start < m.end);
		if (marker) {
			const last = out[out.length - 1];
			if (last && last.start === marker.start) {
				last.end = offset;
				last.width += visibleWidth(g);
				continue;
			}
			out.push({ start: marker.start, end: offset, width: visibleWidth(g), space: false });
			continue;
		}
		out.push({ start, end: offset, width: visibleWidth(g), space: g === " " });
	}
	return out;
}

/** Word-wraps one logical line: breaks after spaces; over-long words break by graphemes. */
function wrapLine(text: string, lineIndex: number, width: number, pastes: ReadonlyMap<number, string>): VisualLine[] {
	const rows: VisualLine[] = [];
	const us = units(text, pastes);
	let rowStart = 0;
	let rowWidth = 0;
	let breakAt = -1;
	let widthAtBreak = 0;
	for (const u of us) {
		if (u.space && rowWidth + u.width > width && rowWidth > 0) {
			// A space at the wrap point stays at the end of the row it ends (drawn clipped).
			rows.push({ line: lineIndex, start: rowStart, end: u.end });
			rowStart = u.end;
			rowWidth = 0;
			breakAt = -1;
			continue;
		}
		if (rowWidth + u.width > width && rowWidth > 0) {
			if (breakAt > rowStart) {
				rows.push({ line: lineIndex, start: rowStart, end: breakAt });
				rowStart = breakAt;
				rowWidth -= widthAtBreak;
			} else {
				rows.push({ line: lineIndex, start: rowStart, end: u.start });
				rowStart = u.start;
				rowWidth = 0;
			}
			breakAt = -1;
		}
		rowWidth += u.width;
		if (u.space) {
			breakAt = u.end;
			widthAtBreak = rowWidth;
		}
	}
	rows.push({ line: lineIndex, start: rowStart, end: text.length });
	return rows;
}

export function layoutLines(
	lines: readonly string[],
	width: number,
	pastes: ReadonlyMap<number, string>,
): VisualLine[] {
	const out: VisualLine[] = [];
	lines.forEach((text, i) => {
		out.push(...wrapLine(text, i, Math.max(1, width), pastes));
	});
	return out;
}

/**
 * The last layout, reused while the lines array, width and pastes are the same objects (edits
 * replace the lines array and the pastes map rather than changing them).
 */
export class LayoutMemo {
	private last:
		| { lines: readonly string[]; width: number; pastes: ReadonlyMap<number, string>; rows: VisualLine[] }
		| undefined;

	rows(lines: readonly string[], width: number, pastes: ReadonlyMap<number, string>): VisualLine[] {
		const last = this.last;
		if (last && last.lines === lines && last.width === width && last.pastes === pastes) return last.rows;
		const rows = layoutLines(lines, width, pastes);
		this.last = { lines, width, pastes, rows };
		return rows;
	}
}

/** The visual row holding the cursor: a position at a wrap point belongs to the next row. */
export function visualIndexOf(rows: readonly VisualLine[], line: number, col: number): number {
	for (let i = 0; i < rows.length; i++) {
		const r = rows[i]!;
		if (r.line !== line) continue;
		const next = rows[i + 1];
		const lastOfLine = !next || next.line !== line;
		if (col >= r.start && (col < r.end || lastOfLine)) return i;
	}
	return 0;
}

/**
 * Text offset on a row at a display column (Up/Down with a sticky column, mouse clicks). A
 * wrapped row's end offset belongs to the next row, so the result stays before it.
 */
export function offsetAtColumn(rows: readonly VisualLine[], index: number, text: string, column: number): number {
	const row = rows[index]!;
	let col = row.start;
	let width = 0;
	for (const g of graphemes(text.slice(row.start, row.end))) {
		const w = visibleWidth(g);
		if (width + w > column) break;
		width += w;
		col += g.length;
	}
	const next = rows[index + 1];
	if (col === row.end && next && next.line === row.line && col > row.start) col -= graphemeLengthBefore(text, col);
	return col;
}
