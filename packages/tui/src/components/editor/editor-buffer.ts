import { graphemeLengthAfter, graphemeLengthBefore } from "../editing/graphemes.js";
import { KillRing } from "../editing/kill-ring.js";
import { UndoStack } from "../editing/undo-stack.js";
import type { EditorState } from "./editor-text.js";
import { findMarkers, isLargePaste, pasteMarker, renumberAfterRemoval } from "./paste-markers.js";

interface Snapshot {
	state: EditorState;
	pastes: Map<number, string>;
	pasteCounter: number;
}

/**
 * The editor's text model: lines and cursor, stored pastes behind their markers, undo and the
 * kill ring. The `Editor` component maps keys and mouse to these edits and draws the result.
 */
export class EditorBuffer {
	state: EditorState = { lines: [""], cursorLine: 0, cursorCol: 0 };
	pastes = new Map<number, string>();
	/** Column that Up/Down aim for across rows of different lengths. */
	preferredCol: number | undefined;
	private pasteCounter = 0;
	private readonly undo = new UndoStack<Snapshot>((s) => ({
		state: { ...s.state, lines: [...s.state.lines] },
		pastes: new Map(s.pastes),
		pasteCounter: s.pasteCounter,
	}));
	private readonly killRing = new KillRing();
	private yanked: { line: number; col: number; length: number } | undefined;

	constructor(private readonly onChange: (text: string) => void) {}

	get text(): string {
		return this.state.lines.join("\n");
	}

	/** The cursor's line. */
	get line(): string {
		return this.state.lines[this.state.cursorLine]!;
	}

	setState(state: EditorState): void {
		const changed = state.lines.join("\n") !== this.text;
		this.state = state;
		if (changed) this.onChange(this.text);
	}

	/** Empties everything after a submit. */
	clear(): void {
		this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
		this.pastes = new Map();
		this.pasteCounter = 0;
		this.undo.clear();
		this.onChange("");
	}

	private snapshot(): Snapshot {
		return { state: this.state, pastes: this.pastes, pasteCounter: this.pasteCounter };
	}

	pushUndo(): void {
		this.undo.push(this.snapshot());
	}

	/** Snapshot before typing: a run of word characters undoes as one. */
	pushTypingUndo(text: string): void {
		this.undo.pushTyping(this.snapshot(), text);
	}

	/** Returns false when there is nothing to undo. */
	applyUndo(): boolean {
		const previous = this.undo.pop();
		if (!previous) return false;
		this.pastes = previous.pastes;
		this.pasteCounter = previous.pasteCounter;
		this.setState(previous.state);
		return true;
	}

	moveCursor(line: number, col: number, keepPreferred = false): void {
		this.undo.breakRun();
		this.state = { ...this.state, cursorLine: line, cursorCol: col };
		if (!keepPreferred) this.preferredCol = undefined;
	}

	/** Inserts text at the cursor without an undo snapshot. */
	insertRaw(text: string): void {
		const { lines, cursorLine, cursorCol } = this.state;
		const line = lines[cursorLine]!;
		const parts = (line.slice(0, cursorCol) + text + line.slice(cursorCol)).split("\n");
		const tailLength = line.length - cursorCol;
		const next = [...lines.slice(0, cursorLine), ...parts, ...lines.slice(cursorLine + 1)];
		const newLine = cursorLine + parts.length - 1;
		this.setState({ lines: next, cursorLine: newLine, cursorCol: parts[parts.length - 1]!.length - tailLength });
		this.preferredCol = undefined;
	}

	/** Inserts pasted text; a large paste is stored and shown as one atomic marker. */
	insertPaste(text: string): void {
		if (!isLargePaste(text)) {
			this.insertRaw(text);
			return;
		}
		const id = ++this.pasteCounter;
		this.pastes = new Map(this.pastes).set(id, text);
		this.insertRaw(pasteMarker(id, text));
	}

	/** Deletes the range between two positions (any order) and returns the removed text. */
	deleteRange(aLine: number, aCol: number, bLine: number, bCol: number): string {
		const [sl, sc, el, ec] =
			aLine < bLine || (aLine === bLine && aCol <= bCol) ? [aLine, aCol, bLine, bCol] : [bLine, bCol, aLine, aCol];
		const { lines } = this.state;
		const removed = lines
			.slice(sl, el + 1)
			.join("\n")
			.slice(sc, sc + this.offsetBetween(sl, sc, el, ec));
		const merged = lines[sl]!.slice(0, sc) + lines[el]!.slice(ec);
		this.setState({ lines: [...lines.slice(0, sl), merged, ...lines.slice(el + 1)], cursorLine: sl, cursorCol: sc });
		this.preferredCol = undefined;
		return removed;
	}

	/** Deletes a range into the kill ring (joined to the previous kill when `accumulate`). */
	kill(range: [number, number, number, number], accumulate: boolean, backward: boolean): void {
		this.pushUndo();
		const removed = this.deleteRange(...range);
		this.killRing.push(removed, { accumulate, backward });
	}

	/** Removes the paste marker that ends at the cursor, with its stored paste. */
	deleteMarkerBefore(): boolean {
		const marker = this.markerAt(this.line, this.state.cursorCol, "before");
		if (!marker) return false;
		this.pushUndo();
		this.deleteRange(this.state.cursorLine, marker.start, this.state.cursorLine, marker.end);
		const { lines, pastes } = renumberAfterRemoval(this.state.lines, this.pastes, marker.id);
		this.pastes = pastes;
		this.pasteCounter = Math.max(0, ...pastes.keys());
		this.state = { ...this.state, lines };
		return true;
	}

	/** Characters from the start of the text to a position. */
	offsetBetween(sl: number, sc: number, el: number, ec: number): number {
		if (sl === el) return ec - sc;
		let n = this.state.lines[sl]!.length - sc + 1;
		for (let l = sl + 1; l < el; l++) n += this.state.lines[l]!.length + 1;
		return n + ec;
	}

	private markerAt(line: string, col: number, side: "before" | "after") {
		return findMarkers(line, this.pastes).find((m) => (side === "before" ? m.end === col : m.start === col));
	}

	/** Length of the unit before the cursor: a paste marker is atomic. */
	unitBefore(): number {
		const marker = this.markerAt(this.line, this.state.cursorCol, "before");
		return marker ? marker.end - marker.start : graphemeLengthBefore(this.line, this.state.cursorCol);
	}

	unitAfter(): number {
		const marker = this.markerAt(this.line, this.state.cursorCol, "after");
		return marker ? marker.end - marker.start : graphemeLengthAfter(this.line, this.state.cursorCol);
	}

	/** Inserts the newest kill; returns false when the ring is empty. */
	yank(): boolean {
		const text = this.killRing.current();
		if (text === undefined) return false;
		this.pushUndo();
		const start = { line: this.state.cursorLine, col: this.state.cursorCol };
		this.insertRaw(text);
		this.yanked = { ...start, length: text.length };
		return true;
	}

	/** Replaces the text just yanked with the next older kill. */
	yankPop(): boolean {
		const y = this.yanked;
		if (!y) return false;
		const text = this.killRing.rotate() ?? "";
		this.pushUndo();
		const endOffset = this.offsetBetween(0, 0, y.line, y.col) + y.length;
		const before = this.text.slice(0, endOffset).split("\n");
		this.deleteRange(y.line, y.col, before.length - 1, before[before.length - 1]!.length);
		this.insertRaw(text);
		this.yanked = { ...y, length: text.length };
		return true;
	}
}
