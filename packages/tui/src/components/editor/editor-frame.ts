import { graphemes } from "../../text/grapheme.js";
import { padToWidth, truncateToWidth } from "../../text/truncate.js";
import { visibleWidth } from "../../text/width.js";
import { CURSOR_MARKER, renderFakeCursor } from "../../tui/component.js";
import { type VisualLine, visualIndexOf } from "./editor-layout.js";
import type { EditorState } from "./editor-text.js";

export interface EditorFrameInput {
	state: EditorState;
	rows: VisualLine[];
	focused: boolean;
	width: number;
	/** Horizontal padding already fitted to the width. */
	paddingX: number;
	maxVisible: number;
	/** First visible row of the previous frame: kept unless the cursor left the window. */
	scrollOffset: number;
	borderColor: (text: string) => string;
	/** Autocomplete menu lines, drawn under the bottom border. */
	below: readonly string[];
}

export interface EditorFrame {
	lines: string[];
	scrollOffset: number;
	visibleRows: number;
}

/** Scroll window: the cursor row always visible, never scrolled past the last row. */
export function editorScrollOffset(rows: number, cursorRow: number, previous: number, maxVisible: number): number {
	let offset = previous;
	if (cursorRow < offset) offset = cursorRow;
	if (cursorRow >= offset + maxVisible) offset = cursorRow - maxVisible + 1;
	return Math.max(0, Math.min(offset, Math.max(0, rows - maxVisible)));
}

/** Bordered editor box: rows in the scroll window, "↑/↓ N more" on the borders, the fake cursor. */
export function renderEditorFrame(input: EditorFrameInput): EditorFrame {
	const { state, rows, width, paddingX, maxVisible, borderColor } = input;
	const contentWidth = Math.max(1, width - 2 * paddingX);
	const cursorRow = visualIndexOf(rows, state.cursorLine, state.cursorCol);
	const scrollOffset = editorScrollOffset(rows.length, cursorRow, input.scrollOffset, maxVisible);
	const visibleRows = rows.slice(scrollOffset, scrollOffset + maxVisible);
	const margin = " ".repeat(paddingX);
	const lines: string[] = [border(width, scrollOffset, "↑", borderColor)];
	visibleRows.forEach((row, k) => {
		const text = state.lines[row.line]!;
		let content: string;
		if (input.focused && scrollOffset + k === cursorRow) {
			const col = state.cursorCol;
			const cell = graphemes(text.slice(col, row.end))[0] ?? " ";
			const before = text.slice(row.start, col);
			const after = text.slice(col + (cell === " " && col >= row.end ? 0 : cell.length), row.end);
			content = before + CURSOR_MARKER + renderFakeCursor(cell) + after;
		} else content = text.slice(row.start, row.end);
		lines.push(margin + padToWidth(truncateToWidth(content, contentWidth, ""), contentWidth) + margin);
	});
	const hiddenBelow = rows.length - scrollOffset - visibleRows.length;
	lines.push(border(width, hiddenBelow, "↓", borderColor));
	for (const line of input.below) lines.push(margin + padToWidth(line, contentWidth) + margin);
	return { lines, scrollOffset, visibleRows: visibleRows.length };
}

function border(width: number, hidden: number, arrow: string, color: (text: string) => string): string {
	if (hidden <= 0) return color("─".repeat(width));
	const label = ` ${arrow} ${hidden} more `;
	const labelWidth = visibleWidth(label);
	if (labelWidth + 2 <= width) {
		const left = Math.floor((width - labelWidth) / 2);
		return color("─".repeat(left) + label + "─".repeat(width - left - labelWidth));
	}
	return color(truncateToWidth(`───${label}`, width, "..."));
}
