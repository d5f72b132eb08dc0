import type { AutocompleteProvider, CompletionResult } from "../../autocomplete/autocomplete.js";
import { isSlashCommandNameContext, isTokenBoundary } from "../../autocomplete/autocomplete.js";
import { getKeybindings } from "../../keys/keybindings.js";
import { matchesKey } from "../../keys/match-key.js";
import { decodePrintableKey } from "../../keys/parse-key.js";
import { graphemes } from "../../text/grapheme.js";
import { padToWidth, truncateToWidth } from "../../text/truncate.js";
import { visibleWidth } from "../../text/width.js";
import { type Component, CURSOR_MARKER, type Focusable, renderFakeCursor } from "../../tui/component.js";
import type { TUI } from "../../tui/tui-base.js";
import {
	graphemeLengthAfter,
	graphemeLengthBefore,
	wordBoundaryLeft,
	wordBoundaryRight,
} from "../editing/graphemes.js";
import { KillRing } from "../editing/kill-ring.js";
import { UndoStack } from "../editing/undo-stack.js";
import type { SelectListTheme } from "../select-list.js";
import { EditorAutocomplete } from "./editor-autocomplete.js";
import { LayoutMemo, type VisualLine, visualIndexOf } from "./editor-layout.js";
import { expandMarkers, findMarkers, isLargePaste, pasteMarker, renumberAfterRemoval } from "./paste-markers.js";

export interface EditorTheme {
	borderColor: (text: string) => string;
	selectList: SelectListTheme;
}

export interface EditorOptions {
	paddingX?: number;
	autocompleteMaxVisible?: number;
}

/** What applications (and extensions) program against when they swap in their own editor. */
export interface EditorComponent extends Component {
	getText(): string;
	setText(text: string): void;
	handleInput(data: string): void;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	addToHistory?(text: string): void;
	insertTextAtCursor?(text: string): void;
	getExpandedText?(): string;
	setAutocompleteProvider?(provider: AutocompleteProvider | undefined): void;
	borderColor?: (text: string) => string;
	setPaddingX?(paddingX: number): void;
	setAutocompleteMaxVisible?(maxVisible: number): void;
}

interface EditorState {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

interface Snapshot {
	state: EditorState;
	pastes: Map<number, string>;
	pasteCounter: number;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const MAX_HISTORY = 100;
const WORD_CHAR = /^[A-Za-z0-9._-]$|^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** Text entering the editor: LF line ends, tabs as spaces, and no other controls (they would reach the terminal). */
function normalize(text: string): string {
	return text
		.replace(/\r\n|\r/g, "\n")
		.replaceAll("\t", "    ")
		.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "");
}

/** Multi-line prompt editor with history, undo, kill ring, paste markers and autocomplete. */
export class Editor implements EditorComponent, Focusable {
	focused = false;
	disableSubmit = false;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	borderColor: (text: string) => string;
	private state: EditorState = { lines: [""], cursorLine: 0, cursorCol: 0 };
	private pastes = new Map<number, string>();
	private pasteCounter = 0;
	private pasteBuffer: string | undefined;
	private history: string[] = [];
	private historyIndex = -1;
	private draft: EditorState | undefined;
	private readonly undo = new UndoStack<Snapshot>((s) => ({
		state: { ...s.state, lines: [...s.state.lines] },
		pastes: new Map(s.pastes),
		pasteCounter: s.pasteCounter,
	}));
	private readonly killRing = new KillRing();
	private lastAction: "kill" | "yank" | undefined;
	private yanked: { line: number; col: number; length: number } | undefined;
	private jumpMode: "forward" | "backward" | undefined;
	private preferredCol: number | undefined;
	private scrollOffset = 0;
	private paddingX: number;
	private readonly autocomplete: EditorAutocomplete;
	private lastLayout: { rows: VisualLine[]; visible: number } | undefined;
	/** The editor is drawn every frame while an answer streams: its layout is kept while unchanged. */
	private readonly layoutMemo = new LayoutMemo();

	constructor(
		/** Protected, as in pi-tui: editor subclasses (custom editors in extensions) request renders through it. */
		protected readonly tui: Pick<TUI, "requestRender" | "terminal">,
		theme: EditorTheme,
		options: EditorOptions = {},
	) {
		this.borderColor = theme.borderColor;
		this.paddingX = options.paddingX ?? 0;
		this.autocomplete = new EditorAutocomplete(
			{
				lines: () => this.state.lines,
				cursor: () => ({ line: this.state.cursorLine, col: this.state.cursorCol }),
				apply: (r) => this.applyCompletion(r),
				requestRender: () => this.tui.requestRender(),
			},
			theme.selectList,
		);
		this.autocomplete.maxVisible = options.autocompleteMaxVisible ?? 5;
	}

	get capturesViewportInput(): boolean {
		return this.autocomplete.isOpen();
	}

	// ---- public API ------------------------------------------------------------------------

	getText(): string {
		return this.state.lines.join("\n");
	}

	getLines(): string[] {
		return [...this.state.lines];
	}

	getCursor(): { line: number; col: number } {
		return { line: this.state.cursorLine, col: this.state.cursorCol };
	}

	getExpandedText(): string {
		return expandMarkers(this.getText(), this.pastes);
	}

	setText(text: string): void {
		this.exitHistory();
		this.setState(this.stateFromText(text, "end"));
	}

	insertTextAtCursor(text: string): void {
		this.pushUndo();
		this.insertRaw(normalize(text));
	}

	addToHistory(text: string): void {
		const entry = text.trim();
		if (!entry || this.history[0] === entry) return;
		this.history.unshift(entry);
		if (this.history.length > MAX_HISTORY) this.history.length = MAX_HISTORY;
	}

	setAutocompleteProvider(provider: AutocompleteProvider | undefined): void {
		this.autocomplete.provider = provider;
		this.autocomplete.close();
	}

	setPaddingX(paddingX: number): void {
		this.paddingX = paddingX;
	}

	setAutocompleteMaxVisible(maxVisible: number): void {
		this.autocomplete.maxVisible = maxVisible;
	}

	isShowingAutocomplete(): boolean {
		return this.autocomplete.isOpen();
	}

	invalidate(): void {}

	// ---- state helpers ---------------------------------------------------------------------

	private stateFromText(text: string, cursor: "start" | "end"): EditorState {
		const lines = normalize(text).split("\n");
		if (cursor === "start") return { lines, cursorLine: 0, cursorCol: 0 };
		return { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1]!.length };
	}

	private setState(state: EditorState): void {
		const changed = state.lines.join("\n") !== this.getText();
		this.state = state;
		if (changed) this.onChange?.(this.getText());
	}

	private get line(): string {
		return this.state.lines[this.state.cursorLine]!;
	}

	private snapshot(): Snapshot {
		return { state: this.state, pastes: this.pastes, pasteCounter: this.pasteCounter };
	}

	private pushUndo(): void {
		this.undo.push(this.snapshot());
	}

	private moveCursor(line: number, col: number, keepPreferred = false): void {
		this.undo.breakRun();
		this.state = { ...this.state, cursorLine: line, cursorCol: col };
		if (!keepPreferred) this.preferredCol = undefined;
	}

	/** Inserts text at the cursor without an undo snapshot. */
	private insertRaw(text: string): void {
		const { lines, cursorLine, cursorCol } = this.state;
		const line = lines[cursorLine]!;
		const parts = (line.slice(0, cursorCol) + text + line.slice(cursorCol)).split("\n");
		const tailLength = line.length - cursorCol;
		const next = [...lines.slice(0, cursorLine), ...parts, ...lines.slice(cursorLine + 1)];
		const newLine = cursorLine + parts.length - 1;
		this.setState({ lines: next, cursorLine: newLine, cursorCol: parts[parts.length - 1]!.length - tailLength });
		this.preferredCol = undefined;
	}

	/** Deletes the range between two positions (any order) and returns the removed text. */
	private deleteRange(aLine: number, aCol: number, bLine: number, bCol: number): string {
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

	private offsetBetween(sl: number, sc: number, el: number, ec: number): number {
		if (sl === el) return ec - sc;
		let n = this.state.lines[sl]!.length - sc + 1;
		for (let l = sl + 1; l < el; l++) n += this.state.lines[l]!.length + 1;
		return n + ec;
	}

	private markerAt(line: string, col: number, side: "before" | "after") {
		return findMarkers(line, this.pastes).find((m) => (side === "before" ? m.end === col : m.start === col));
	}

	/** Length of the unit before the cursor: a paste marker is atomic. */
	private unitBefore(): number {
		const marker = this.markerAt(this.line, this.state.cursorCol, "before");
		return marker ? marker.end - marker.start : graphemeLengthBefore(this.line, this.state.cursorCol);
	}

	private unitAfter(): number {
		const marker = this.markerAt(this.line, this.state.cursorCol, "after");
		return marker ? marker.end - marker.start : graphemeLengthAfter(this.line, this.state.cursorCol);
	}

	// ---- input -----------------------------------------------------------------------------

	handleInput(data: string): void {
		if (this.jumpMode) {
			const kb = getKeybindings();
			const mode = this.jumpMode;
			this.jumpMode = undefined;
			if (kb.matches(data, "tui.editor.jumpForward") || kb.matches(data, "tui.editor.jumpBackward")) return;
			const ch = decodePrintableKey(data) ?? (data.charCodeAt(0) >= 0x20 && data !== "\x7f" ? data : undefined);
			if (ch !== undefined) {
				this.jumpTo(ch, mode);
				return;
			}
		}
		if (this.pasteBuffer !== undefined || data.includes(PASTE_START)) {
			this.collectPaste(data);
			return;
		}
		const action = this.lastAction;
		this.lastAction = undefined;
		this.dispatch(data, action);
	}

	private collectPaste(data: string): void {
		let buffer = this.pasteBuffer ?? "";
		if (this.pasteBuffer === undefined) {
			const start = data.indexOf(PASTE_START);
			if (start > 0) this.dispatch(data.slice(0, start), undefined);
			buffer = data.slice(start + PASTE_START.length);
		} else buffer += data;
		const end = buffer.indexOf(PASTE_END);
		if (end < 0) {
			this.pasteBuffer = buffer;
			return;
		}
		this.pasteBuffer = undefined;
		this.paste(buffer.slice(0, end));
		const rest = buffer.slice(end + PASTE_END.length);
		if (rest) this.handleInput(rest);
	}

	private dispatch(data: string, previous: "kill" | "yank" | undefined): void {
		const kb = getKeybindings();
		if (kb.matches(data, "tui.input.copy")) return;
		if (kb.matches(data, "tui.editor.undo")) {
			this.applyUndo();
			return;
		}
		if (this.autocomplete.isOpen()) {
			const handled = this.autocomplete.handleKey(data);
			if (handled === "handled") return;
			if (handled === "submit") {
				this.submit();
				return;
			}
		}
		if (kb.matches(data, "tui.input.tab")) {
			const { lines, cursorLine, cursorCol } = this.state;
			this.autocomplete.request({ force: !isSlashCommandNameContext(lines, cursorLine, cursorCol) });
			return;
		}
		if (this.handleDeletion(data, kb, previous)) return;
		if (kb.matches(data, "tui.editor.yank")) {
			this.yank();
			return;
		}
		if (kb.matches(data, "tui.editor.yankPop")) {
			if (previous === "yank") this.yankPop();
			return;
		}
		if (kb.matches(data, "tui.editor.historyPrevious")) {
			this.browseHistory(1);
			return;
		}
		if (kb.matches(data, "tui.editor.historyNext")) {
			this.browseHistory(-1);
			return;
		}
		if (this.handleMotion(data, kb)) return;
		if (this.isNewLine(data, kb)) {
			if (this.submitBoundToShiftEnter(kb) && this.line[this.state.cursorCol - 1] === "\\") {
				this.deleteRange(
					this.state.cursorLine,
					this.state.cursorCol - 1,
					this.state.cursorLine,
					this.state.cursorCol,
				);
				this.submit();
				return;
			}
			this.pushUndo();
			this.insertRaw("\n");
			return;
		}
		if (kb.matches(data, "tui.input.submit")) {
			if (this.disableSubmit) return;
			if (this.line[this.state.cursorCol - 1] === "\\") {
				this.pushUndo();
				this.deleteRange(
					this.state.cursorLine,
					this.state.cursorCol - 1,
					this.state.cursorLine,
					this.state.cursorCol,
				);
				this.insertRaw("\n");
				return;
			}
			this.submit();
			return;
		}
		if (kb.matches(data, "tui.editor.cursorUp")) {
			this.verticalMove(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorDown")) {
			this.verticalMove(1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLeft")) {
			this.horizontalMove(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorRight")) {
			this.horizontalMove(1);
			return;
		}
		if (kb.matches(data, "tui.editor.pageUp") || kb.matches(data, "tui.editor.pageDown")) {
			const page = Math.max(1, this.lastLayout?.visible ?? 5);
			const direction = kb.matches(data, "tui.editor.pageUp") ? -1 : 1;
			for (let i = 0; i < page; i++) this.visualMove(direction);
			return;
		}
		if (kb.matches(data, "tui.editor.jumpForward")) {
			this.jumpMode = "forward";
			return;
		}
		if (kb.matches(data, "tui.editor.jumpBackward")) {
			this.jumpMode = "backward";
			return;
		}
		if (matchesKey(data, "shift+space")) {
			this.type(" ");
			return;
		}
		const printable = decodePrintableKey(data);
		if (printable !== undefined) {
			this.type(printable);
			return;
		}
		if (data.charCodeAt(0) >= 0x20 && data !== "\x7f") this.type(data);
	}

	private isNewLine(data: string, kb: ReturnType<typeof getKeybindings>): boolean {
		return (
			kb.matches(data, "tui.input.newLine") ||
			(data.startsWith("\n") && data.length > 1) ||
			data === "\x1b\r" ||
			data === "\x1b[13;2~" ||
			(data.length > 1 && data.includes("\x1b") && data.includes("\r")) ||
			data === "\n"
		);
	}

	private submitBoundToShiftEnter(kb: ReturnType<typeof getKeybindings>): boolean {
		return kb.getKeys("tui.input.submit").some((k) => k.toLowerCase() === "shift+enter");
	}

	private handleDeletion(data: string, kb: ReturnType<typeof getKeybindings>, previous: string | undefined): boolean {
		const { cursorLine, cursorCol, lines } = this.state;
		const line = this.line;
		const kill = (sl: number, sc: number, el: number, ec: number, backward: boolean) => {
			if (sl === el && sc === ec) return;
			this.exitHistory();
			this.pushUndo();
			const removed = this.deleteRange(sl, sc, el, ec);
			this.killRing.push(removed, { accumulate: previous === "kill", backward });
			this.lastAction = "kill";
			this.afterEdit();
		};
		if (kb.matches(data, "tui.editor.deleteToLineEnd")) {
			if (cursorCol < line.length) kill(cursorLine, cursorCol, cursorLine, line.length, false);
			else if (cursorLine < lines.length - 1) kill(cursorLine, cursorCol, cursorLine + 1, 0, false);
			return true;
		}
		if (kb.matches(data, "tui.editor.deleteToLineStart")) {
			if (cursorCol > 0) kill(cursorLine, 0, cursorLine, cursorCol, true);
			else if (cursorLine > 0) kill(cursorLine - 1, lines[cursorLine - 1]!.length, cursorLine, 0, true);
			return true;
		}
		if (kb.matches(data, "tui.editor.deleteWordBackward")) {
			if (cursorCol > 0) kill(cursorLine, wordBoundaryLeft(line, cursorCol), cursorLine, cursorCol, true);
			else if (cursorLine > 0) kill(cursorLine - 1, lines[cursorLine - 1]!.length, cursorLine, 0, true);
			return true;
		}
		if (kb.matches(data, "tui.editor.deleteWordForward")) {
			if (cursorCol < line.length)
				kill(cursorLine, cursorCol, cursorLine, wordBoundaryRight(line, cursorCol), false);
			else if (cursorLine < lines.length - 1) kill(cursorLine, cursorCol, cursorLine + 1, 0, false);
			return true;
		}
		if (kb.matches(data, "tui.editor.deleteCharBackward") || matchesKey(data, "shift+backspace")) {
			this.deleteBackward();
			return true;
		}
		if (kb.matches(data, "tui.editor.deleteCharForward") || matchesKey(data, "shift+delete")) {
			const len = this.unitAfter();
			this.exitHistory();
			if (len > 0) {
				this.pushUndo();
				this.deleteRange(cursorLine, cursorCol, cursorLine, cursorCol + len);
			} else if (cursorLine < lines.length - 1) {
				this.pushUndo();
				this.deleteRange(cursorLine, cursorCol, cursorLine + 1, 0);
			}
			this.afterEdit();
			return true;
		}
		return false;
	}

	private deleteBackward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.exitHistory();
		const marker = this.markerAt(this.line, cursorCol, "before");
		if (marker) {
			// A paste marker is removed atomically together with its stored paste.
			this.pushUndo();
			this.deleteRange(cursorLine, marker.start, cursorLine, marker.end);
			const { lines: renumbered, pastes } = renumberAfterRemoval(this.state.lines, this.pastes, marker.id);
			this.pastes = pastes;
			this.pasteCounter = Math.max(0, ...pastes.keys());
			this.state = { ...this.state, lines: renumbered };
			this.afterEdit();
			return;
		}
		const len = graphemeLengthBefore(this.line, cursorCol);
		if (len > 0) {
			this.pushUndo();
			this.deleteRange(cursorLine, cursorCol - len, cursorLine, cursorCol);
		} else if (cursorLine > 0) {
			this.pushUndo();
			this.deleteRange(cursorLine - 1, lines[cursorLine - 1]!.length, cursorLine, 0);
		}
		this.afterEdit();
	}

	private handleMotion(data: string, kb: ReturnType<typeof getKeybindings>): boolean {
		const { cursorLine, cursorCol } = this.state;
		if (kb.matches(data, "tui.editor.cursorLineStart")) this.moveCursor(cursorLine, 0);
		else if (kb.matches(data, "tui.editor.cursorLineEnd")) this.moveCursor(cursorLine, this.line.length);
		else if (kb.matches(data, "tui.editor.cursorWordLeft")) {
			if (cursorCol === 0 && cursorLine > 0)
				this.moveCursor(cursorLine - 1, this.state.lines[cursorLine - 1]!.length);
			else this.moveCursor(cursorLine, wordBoundaryLeft(this.line, cursorCol));
		} else if (kb.matches(data, "tui.editor.cursorWordRight")) {
			if (cursorCol === this.line.length && cursorLine < this.state.lines.length - 1)
				this.moveCursor(cursorLine + 1, 0);
			else this.moveCursor(cursorLine, wordBoundaryRight(this.line, cursorCol));
		} else return false;
		this.autocomplete.close();
		return true;
	}

	private horizontalMove(direction: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.autocomplete.close();
		if (direction < 0) {
			const len = this.unitBefore();
			if (len > 0) this.moveCursor(cursorLine, cursorCol - len);
			else if (cursorLine > 0) this.moveCursor(cursorLine - 1, lines[cursorLine - 1]!.length);
			return;
		}
		const len = this.unitAfter();
		if (len > 0) this.moveCursor(cursorLine, cursorCol + len);
		else if (cursorLine < lines.length - 1) this.moveCursor(cursorLine + 1, 0);
	}

	/** Up/Down: history at the edges, otherwise one visual line with a sticky column. */
	private verticalMove(direction: -1 | 1): void {
		const rows = this.layoutRows();
		const index = visualIndexOf(rows, this.state.cursorLine, this.state.cursorCol);
		if (direction < 0 && index === 0) {
			if (this.getText() === "" || this.historyIndex >= 0 || this.state.cursorCol === 0) this.browseHistory(1);
			else this.moveCursor(this.state.cursorLine, 0);
			return;
		}
		if (direction > 0 && index === rows.length - 1) {
			if (this.historyIndex >= 0) this.browseHistory(-1);
			else this.moveCursor(this.state.cursorLine, this.line.length);
			return;
		}
		this.visualMove(direction);
	}

	private visualMove(direction: -1 | 1): void {
		const rows = this.layoutRows();
		const index = visualIndexOf(rows, this.state.cursorLine, this.state.cursorCol);
		const target = rows[index + direction];
		if (!target) return;
		const current = rows[index]!;
		const column =
			this.preferredCol ?? visibleWidth(this.state.lines[current.line]!.slice(current.start, this.state.cursorCol));
		const text = this.state.lines[target.line]!;
		let col = target.start;
		let width = 0;
		for (const g of graphemes(text.slice(target.start, target.end))) {
			const w = visibleWidth(g);
			if (width + w > column) break;
			width += w;
			col += g.length;
		}
		// A wrapped row's end position belongs to the next row; stay before it.
		const next = rows[index + direction + 1];
		if (col === target.end && next && next.line === target.line && col > target.start)
			col -= graphemeLengthBefore(text, col);
		this.moveCursor(target.line, col, true);
		this.preferredCol = column;
	}

	private layoutRows(): VisualLine[] {
		return this.layoutMemo.rows(this.state.lines, this.layoutWidth(this.lastWidth), this.pastes);
	}

	private lastWidth = 80;

	private layoutWidth(width: number): number {
		const padX = this.effectivePadding(width);
		const content = Math.max(1, width - 2 * padX);
		return Math.max(1, padX === 0 ? content - 1 : content);
	}

	private effectivePadding(width: number): number {
		return Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
	}

	private jumpTo(ch: string, mode: "forward" | "backward"): void {
		const text = this.getText();
		const offset = this.offsetBetween(0, 0, this.state.cursorLine, this.state.cursorCol);
		const found = mode === "forward" ? text.indexOf(ch, offset + 1) : text.lastIndexOf(ch, offset - 1);
		if (found < 0 || (mode === "backward" && offset === 0)) return;
		const before = text.slice(0, found).split("\n");
		this.moveCursor(before.length - 1, before[before.length - 1]!.length);
	}

	private type(text: string): void {
		this.exitHistory();
		this.undo.pushTyping(this.snapshot(), text);
		this.insertRaw(text);
		this.updateAutocompleteAfterTyping(text);
	}

	private updateAutocompleteAfterTyping(text: string): void {
		if (!this.autocomplete.provider) return;
		const { lines, cursorLine, cursorCol } = this.state;
		const before = this.line.slice(0, cursorCol - text.length);
		if (text === "/" && cursorLine === 0 && before.trim() === "") {
			this.autocomplete.request({});
			return;
		}
		const triggers = this.autocomplete.provider.triggerCharacters ?? [];
		if (triggers.includes(text) && isTokenBoundary(before)) {
			this.autocomplete.request({ debounced: true });
			return;
		}
		if (WORD_CHAR.test(text) || text === "/") {
			if (isSlashCommandNameContext(lines, cursorLine, cursorCol)) this.autocomplete.request({});
			else if (this.autocomplete.isOpen() || this.inTriggerContext()) this.autocomplete.request({ debounced: true });
		} else if (this.autocomplete.isOpen()) this.autocomplete.close();
	}

	private inTriggerContext(): boolean {
		const triggers = this.autocomplete.provider?.triggerCharacters ?? [];
		const before = this.line.slice(0, this.state.cursorCol);
		const token = /(\S*)$/.exec(before)![1]!;
		return triggers.some(
			(t) => token.startsWith(t) && isTokenBoundary(before.slice(0, before.length - token.length)),
		);
	}

	/** After a deletion the menu follows the new context or closes. */
	private afterEdit(): void {
		if (!this.autocomplete.isOpen()) return;
		const { lines, cursorLine, cursorCol } = this.state;
		if (isSlashCommandNameContext(lines, cursorLine, cursorCol) || this.inTriggerContext())
			this.autocomplete.request({});
		else this.autocomplete.close();
	}

	private applyCompletion(result: CompletionResult): void {
		this.pushUndo();
		this.setState({ lines: result.lines, cursorLine: result.cursorLine, cursorCol: result.cursorCol });
	}

	private yank(): void {
		const text = this.killRing.current();
		if (text === undefined) return;
		this.pushUndo();
		const start = { line: this.state.cursorLine, col: this.state.cursorCol };
		this.insertRaw(text);
		this.yanked = { ...start, length: text.length };
		this.lastAction = "yank";
	}

	private yankPop(): void {
		const y = this.yanked;
		if (!y) return;
		const text = this.killRing.rotate() ?? "";
		this.pushUndo();
		const endOffset = this.offsetBetween(0, 0, y.line, y.col) + y.length;
		const before = this.getText().slice(0, endOffset).split("\n");
		this.deleteRange(y.line, y.col, before.length - 1, before[before.length - 1]!.length);
		this.insertRaw(text);
		this.yanked = { ...y, length: text.length };
		this.lastAction = "yank";
	}

	private applyUndo(): void {
		const previous = this.undo.pop();
		if (!previous) return;
		this.pastes = previous.pastes;
		this.pasteCounter = previous.pasteCounter;
		this.setState(previous.state);
		this.autocomplete.close();
	}

	private browseHistory(direction: 1 | -1): void {
		if (this.history.length === 0) return;
		const next = this.historyIndex + direction;
		if (next >= this.history.length) return;
		if (this.historyIndex < 0 && direction > 0) {
			this.draft = { ...this.state, lines: [...this.state.lines] };
			this.pushUndo();
		}
		if (next < 0) {
			this.historyIndex = -1;
			if (this.draft)
				this.setState({
					...this.draft,
					cursorLine: this.draft.lines.length - 1,
					cursorCol: this.draft.lines[this.draft.lines.length - 1]!.length,
				});
			this.draft = undefined;
			return;
		}
		this.historyIndex = next;
		this.setState(this.stateFromText(this.history[next]!, direction > 0 ? "start" : "end"));
	}

	private exitHistory(): void {
		this.historyIndex = -1;
		this.draft = undefined;
	}

	private paste(raw: string): void {
		this.autocomplete.close();
		this.exitHistory();
		this.pushUndo();
		// Some multiplexers embed Ctrl+letter as CSI-u inside pastes.
		let text = raw.replace(/\x1b\[(\d+);5u/g, (_, code: string) => String.fromCharCode(Number(code) & 0x1f));
		text = normalize(text);
		const charBefore = this.line[this.state.cursorCol - 1];
		if (/^[/~.]/.test(text) && charBefore && /\w/.test(charBefore)) text = ` ${text}`;
		if (isLargePaste(text)) {
			const id = ++this.pasteCounter;
			this.pastes = new Map(this.pastes).set(id, text);
			this.insertRaw(pasteMarker(id, text));
			return;
		}
		this.insertRaw(text);
	}

	private submit(): void {
		this.autocomplete.close();
		const result = expandMarkers(this.getText(), this.pastes).trim();
		this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
		this.pastes = new Map();
		this.pasteCounter = 0;
		this.exitHistory();
		this.scrollOffset = 0;
		this.undo.clear();
		this.onChange?.("");
		this.onSubmit?.(result);
	}

	// ---- rendering -------------------------------------------------------------------------

	/** A fresh array on every call: subclasses may decorate the lines they get from it (pi-tui's contract). */
	render(width: number): string[] {
		this.lastWidth = width;
		const padX = this.effectivePadding(width);
		const contentWidth = Math.max(1, width - 2 * padX);
		const rows = this.layoutMemo.rows(this.state.lines, this.layoutWidth(width), this.pastes);
		const maxVisible = Math.max(5, Math.floor(this.tui.terminal.rows * 0.3));
		const cursorRow = visualIndexOf(rows, this.state.cursorLine, this.state.cursorCol);
		if (cursorRow < this.scrollOffset) this.scrollOffset = cursorRow;
		if (cursorRow >= this.scrollOffset + maxVisible) this.scrollOffset = cursorRow - maxVisible + 1;
		this.scrollOffset = Math.max(0, Math.min(this.scrollOffset, Math.max(0, rows.length - maxVisible)));
		const visibleRows = rows.slice(this.scrollOffset, this.scrollOffset + maxVisible);
		this.lastLayout = { rows, visible: visibleRows.length };
		const margin = " ".repeat(padX);
		const out: string[] = [this.border(width, this.scrollOffset, "↑")];
		visibleRows.forEach((row, k) => {
			const text = this.state.lines[row.line]!;
			let content: string;
			if (this.focused && this.scrollOffset + k === cursorRow) {
				const col = this.state.cursorCol;
				const cell = graphemes(text.slice(col, row.end))[0] ?? " ";
				const before = text.slice(row.start, col);
				const after = text.slice(col + (cell === " " && col >= row.end ? 0 : cell.length), row.end);
				content = before + CURSOR_MARKER + renderFakeCursor(cell) + after;
			} else content = text.slice(row.start, row.end);
			out.push(margin + padToWidth(truncateToWidth(content, contentWidth, ""), contentWidth) + margin);
		});
		const below = rows.length - this.scrollOffset - visibleRows.length;
		out.push(this.border(width, below, "↓"));
		for (const line of this.autocomplete.render(contentWidth))
			out.push(margin + padToWidth(line, contentWidth) + margin);
		return out;
	}

	private border(width: number, hidden: number, arrow: string): string {
		if (hidden <= 0) return this.borderColor("─".repeat(width));
		const label = ` ${arrow} ${hidden} more `;
		const labelWidth = visibleWidth(label);
		if (labelWidth + 2 <= width) {
			const left = Math.floor((width - labelWidth) / 2);
			return this.borderColor("─".repeat(left) + label + "─".repeat(width - left - labelWidth));
		}
		return this.borderColor(truncateToWidth(`───${label}`, width, "..."));
	}
}
