import { cells } from "../text/width.js";

/**
 * Applies `open`…`close` to columns [start, end) of a styled line, re-opening after every escape
 * sequence inside the range so the line's own resets do not cancel the highlight.
 */
export function highlightColumns(line: string, start: number, end: number, open: string, close: string): string {
	if (end <= start) return line;
	let out = "";
	let col = 0;
	let inside = false;
	for (const cell of cells(line)) {
		if (cell.escape) {
			out += cell.text;
			if (inside) out += open;
			continue;
		}
		const within = col >= start && col < end;
		if (within && !inside) {
			out += open;
			inside = true;
		} else if (!within && inside) {
			out += close;
			inside = false;
		}
		out += cell.text;
		col += cell.width;
	}
	if (inside) out += close;
	return out;
}
