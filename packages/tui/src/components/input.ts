import { getKeybindings } from "../keys/keybindings.js";
import { decodeKittyPrintable } from "../keys/parse-key.js";
import { graphemes } from "../text/grapheme.js";
import { padToWidth, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import {
	type Component,
	CURSOR_MARKER,
	type Focusable,
	renderFakeCursor,
	type TuiMouseEvent,
	type TuiMouseEventResult,
} from "../tui/component.js";
import { graphemeLengthAfter, graphemeLengthBefore, wordBoundaryLeft, wordBoundaryRight } from "./editing/graphemes.js";
import { KillRing } from "./editing/kill-ring.js";
import { UndoStack } from "./editing/undo-stack.js";

/** Options of `Input`: the prompt before the text and the placeholder shown while it is empty. */
export interface InputOptions {
	prompt?: string;
	placeholder?: string;
	placeholderStyle?: (text: string) => string;
}

interface InputState {
	value: string;
	cursor: number;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Single-line text input with horizontal scrolling. */
export class Input implements Component, Focusable {
	focused = false;
	onSubmit?: (value: string) => void;
	onEscape?: () => void;
	private state: InputState = { value: "", cursor: 0 };
	private readonly prompt: string;
	private readonly placeholder: string;
	private readonly placeholderStyle: (text: string) => string;
	private readonly undo = new UndoStack<InputState>((s) => ({ ...s }));
	private readonly killRing = new KillRing();
	private lastAction: "kill" | "yank" | undefined;
	private yanked: { start: number; length: number } | undefined;
	private pasteBuffer: string | undefined;
	/** Where the value text started in the last render, for mouse clicks. */
	private renderedStart = 0;

	constructor(options: InputOptions = {}) {
		this.prompt = options.prompt ?? "> ";
		this.placeholder = options.placeholder ?? "";
		this.placeholderStyle = options.placeholderStyle ?? ((t) => `\x1b[2m${t}\x1b[22m`);
	}

	getValue(): string {
		return this.state.value;
	}

	setValue(value: string): void {
		const clean = oneLine(value);
		this.state = { value: clean, cursor: Math.min(this.state.cursor, clean.length) };
	}

	getCursor(): number {
		return this.state.cursor;
	}

	invalidate(): void {}

	handleInput(data: string): void {
		if (this.pasteBuffer !== undefined || data.startsWith(PASTE_START)) {
			this.pasteBuffer = (this.pasteBuffer ?? "") + data;
			const end = this.pasteBuffer.indexOf(PASTE_END);
			if (end < 0) return;
			const content = this.pasteBuffer.slice(PASTE_START.length, end);
			const rest = this.pasteBuffer.slice(end + PASTE_END.length);
			this.pasteBuffer = undefined;
			this.insert(oneLine(content), true);
			if (rest) this.handleInput(rest);
			return;
		}
		const kb = getKeybindings();
		const action = this.lastAction;
		this.lastAction = undefined;
		const { value, cursor } = this.state;
		if (kb.matches(data, "tui.select.cancel")) {
			this.onEscape?.();
			return;
		}
		if (kb.matches(data, "tui.input.submit") || data === "\n") {
			this.onSubmit?.(value);
			return;
		}
		if (kb.matches(data, "tui.editor.undo")) {
			const previous = this.undo.pop();
			if (previous) this.state = previous;
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharBackward")) {
			const len = graphemeLengthBefore(value, cursor);
			if (len > 0) this.replace(cursor - len, cursor, "");
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharForward")) {
			const len = graphemeLengthAfter(value, cursor);
			if (len > 0) this.replace(cursor, cursor + len, "");
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordBackward")) {
			this.kill(wordBoundaryLeft(value, cursor), cursor, true, action);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordForward")) {
			this.kill(cursor, wordBoundaryRight(value, cursor), false, action);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineStart")) {
			this.kill(0, cursor, true, action);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineEnd")) {
			this.kill(cursor, value.length, false, action);
			return;
		}
		if (kb.matches(data, "tui.editor.yank")) {
			const text = this.killRing.current();
			if (text === undefined) return;
			this.replace(cursor, cursor, text);
			this.yanked = { start: cursor, length: text.length };
			this.lastAction = "yank";
			return;
		}
		if (kb.matches(data, "tui.editor.yankPop")) {
			if (action !== "yank" || !this.yanked) return;
			const text = this.killRing.rotate() ?? "";
			this.replace(this.yanked.start, this.yanked.start + this.yanked.length, text);
			this.yanked = { start: this.yanked.start, length: text.length };
			this.lastAction = "yank";
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLeft")) {
			this.moveTo(cursor - graphemeLengthBefore(value, cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorRight")) {
			this.moveTo(cursor + graphemeLengthAfter(value, cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorWordLeft")) {
			this.moveTo(wordBoundaryLeft(value, cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorWordRight")) {
			this.moveTo(wordBoundaryRight(value, cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineStart")) {
			this.moveTo(0);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineEnd")) {
			this.moveTo(value.length);
			return;
		}
		const printable = decodeKittyPrintable(data);
		if (printable !== undefined) {
			this.insert(printable, false);
			return;
		}
		if (data.charCodeAt(0) >= 0x20 && data.charCodeAt(0) !== 0x7f) this.insert(data, false);
	}

	private moveTo(cursor: number): void {
		this.undo.breakRun();
		this.state = { ...this.state, cursor };
	}

	private replace(start: number, end: number, text: string): void {
		this.undo.push(this.state);
		const value = this.state.value.slice(0, start) + text + this.state.value.slice(end);
		this.state = { value, cursor: start + text.length };
	}

	private insert(text: string, asUnit: boolean): void {
		if (asUnit) {
			this.replace(this.state.cursor, this.state.cursor, text);
			return;
		}
		this.undo.pushTyping(this.state, text);
		const { value, cursor } = this.state;
		this.state = { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
	}

	private kill(start: number, end: number, backward: boolean, previous: string | undefined): void {
		if (end <= start) return;
		this.killRing.push(this.state.value.slice(start, end), { accumulate: previous === "kill", backward });
		this.replace(start, end, "");
		this.lastAction = "kill";
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (event.type !== "press" && event.type !== "click") return undefined;
		const promptWidth = visibleWidth(this.prompt);
		let col = promptWidth;
		let index = this.renderedStart;
		for (const g of graphemes(this.state.value.slice(this.renderedStart))) {
			const w = visibleWidth(g);
			if (col + w > event.x) break;
			col += w;
			index += g.length;
		}
		this.moveTo(index);
		return { focus: true };
	}

	render(width: number): readonly string[] {
		const promptWidth = visibleWidth(this.prompt);
		const available = width - promptWidth;
		if (available <= 0) return [truncateToWidth(this.prompt, width, "")];
		const { value, cursor } = this.state;
		if (value.length === 0 && this.placeholder) {
			this.renderedStart = 0;
			const [first = " ", ...rest] = graphemes(this.placeholder);
			const head = this.focused ? CURSOR_MARKER + renderFakeCursor(first) : this.placeholderStyle(first);
			const text = truncateToWidth(head + this.placeholderStyle(rest.join("")), available, "");
			return [padToWidth(this.prompt + text, width)];
		}
		const cells = graphemes(value);
		const widths = cells.map((g) => visibleWidth(g));
		const offsets: number[] = [];
		let offset = 0;
		for (const g of cells) {
			offsets.push(offset);
			offset += g.length;
		}
		const cursorIndex = offsets.indexOf(cursor) >= 0 ? offsets.indexOf(cursor) : cells.length;
		const total = widths.reduce((a, b) => a + b, 0);
		let start = 0;
		if (total >= available) {
			const before = widths.slice(0, cursorIndex).reduce((a, b) => a + b, 0);
			const reserve = cursorIndex === cells.length ? 1 : 0;
			if (before < available / 2) start = 0;
			else if (total - before < available / 2) {
				let used = reserve;
				start = cells.length;
				while (start > 0 && used + widths[start - 1]! <= available) used += widths[--start]!;
			} else {
				let used = 0;
				start = cursorIndex;
				while (start > 0 && used + widths[start - 1]! <= Math.floor(available / 2)) used += widths[--start]!;
			}
		}
		this.renderedStart = offsets[start] ?? value.length;
		let out = "";
		let used = 0;
		for (let i = start; i <= cells.length; i++) {
			const atCursor = i === cursorIndex && this.focused;
			const cell = cells[i] ?? (atCursor ? " " : "");
			const w = cells[i] ? widths[i]! : atCursor ? 1 : 0;
			if (used + w > available) break;
			out += atCursor ? CURSOR_MARKER + renderFakeCursor(cell) : cell;
			used += w;
		}
		return [padToWidth(this.prompt + out, width)];
	}
}

/** Text entering the one-line input: no line breaks, tabs as spaces, no controls (they would reach the terminal). */
function oneLine(text: string): string {
	return text
		.replace(/\r\n|\r|\n/g, "")
		.replaceAll("\t", "    ")
		.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}
