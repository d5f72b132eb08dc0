import type { ScrollView } from "../layout/scroll-view.js";
import { stripTerminalSequences } from "../text/ansi.js";
import { graphemes, graphemeWidth } from "../text/grapheme.js";

/** A position in a scroll view's content (survives scrolling). */
export interface ContentPoint {
	row: number;
	col: number;
}

const JOINERS = new Set(["/", "-", "+", "\\", "~", "_", "."]);
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });

/** Column boundaries of every grapheme of a plain line. */
function columns(plain: string): { text: string; start: number; end: number }[] {
	const out: { text: string; start: number; end: number }[] = [];
	let col = 0;
	for (const g of graphemes(plain)) {
		const w = graphemeWidth(g);
		out.push({ text: g, start: col, end: col + w });
		col += w;
	}
	return out;
}

/** The word (Unicode segmentation, joined across path punctuation) covering `col`, as columns. */
export function wordAt(line: string, col: number): { start: number; end: number } | undefined {
	const plain = stripTerminalSequences(line);
	const cols = columns(plain);
	const charToCol = new Map<number, number>();
	let index = 0;
	for (const c of cols) {
		charToCol.set(index, c.start);
		index += c.text.length;
	}
	charToCol.set(index, cols.length > 0 ? cols[cols.length - 1]!.end : 0);
	const runs: { start: number; end: number }[] = [];
	let current: { start: number; end: number } | undefined;
	for (const seg of wordSegmenter.segment(plain)) {
		const joinable = seg.isWordLike || JOINERS.has(seg.segment);
		if (joinable) {
			if (current && current.end === seg.index) current.end = seg.index + seg.segment.length;
			else {
				current = { start: seg.index, end: seg.index + seg.segment.length };
				runs.push(current);
			}
		} else current = undefined;
	}
	for (const run of runs) {
		const start = charToCol.get(run.start) ?? 0;
		const end = charToCol.get(run.end) ?? start;
		if (col >= start && col < end) return { start, end };
	}
	return undefined;
}

/** Text selection anchored in a scroll view's content. */
export class TextSelection {
	anchor: ContentPoint;
	head: ContentPoint;
	dragged = false;

	constructor(
		readonly view: ScrollView,
		point: ContentPoint,
		readonly mode: "char" | "word" | "line" = "char",
	) {
		this.anchor = point;
		this.head = point;
		if (mode === "word") {
			const word = wordAt(view.contentLines[point.row] ?? "", point.col);
			if (word) {
				this.anchor = { row: point.row, col: word.start };
				this.head = { row: point.row, col: word.end };
			}
		} else if (mode === "line") {
			this.anchor = { row: point.row, col: 0 };
			this.head = { row: point.row, col: Number.MAX_SAFE_INTEGER };
		}
	}

	extend(point: ContentPoint): void {
		this.head = point;
		this.dragged = true;
	}

	/** Start and end in reading order; the end column is exclusive. */
	range(): { start: ContentPoint; end: ContentPoint } {
		const a = this.anchor;
		const b = this.head;
		const forward = a.row < b.row || (a.row === b.row && a.col <= b.col);
		const [start, end] = forward ? [a, b] : [b, a];
		if (this.mode === "char" && this.dragged) return { start, end: { row: end.row, col: end.col + 1 } };
		return { start, end };
	}

	isEmpty(): boolean {
		const { start, end } = this.range();
		return start.row === end.row && start.col >= end.col;
	}

	/** Selected columns of content row `row`, or undefined. */
	columnsOn(row: number): { start: number; end: number } | undefined {
		const { start, end } = this.range();
		if (row < start.row || row > end.row) return undefined;
		return { start: row === start.row ? start.col : 0, end: row === end.row ? end.col : Number.MAX_SAFE_INTEGER };
	}

	/** Plain text of the selection: per row escapes and trailing spaces stripped, rows joined with \n. */
	text(): string {
		const { start, end } = this.range();
		const rows: string[] = [];
		for (let row = start.row; row <= end.row; row++) {
			const span = this.columnsOn(row)!;
			const plain = stripTerminalSequences(this.view.contentLines[row] ?? "");
			let text = "";
			for (const c of columns(plain)) if (c.start >= span.start && c.end <= span.end) text += c.text;
			rows.push(text.replace(/\s+$/, ""));
		}
		return rows.join("\n");
	}
}
