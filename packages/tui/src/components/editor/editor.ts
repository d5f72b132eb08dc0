import type { AutocompleteProvider, CompletionResult } from "../../autocomplete/autocomplete.js";
import { isSlashCommandNameContext, isTokenBoundary } from "../../autocomplete/autocomplete.js";
import { getKeybindings } from "../../keys/keybindings.js";
import { matchesKey } from "../../keys/match-key.js";
import { decodePrintableKey } from "../../keys/parse-key.js";
import { visibleWidth } from "../../text/width.js";
import type { Focusable, TuiMouseEvent, TuiMouseEventResult } from "../../tui/component.js";
import type { TUI } from "../../tui/tui-base.js";
import { graphemeLengthBefore, wordBoundaryLeft, wordBoundaryRight } from "../editing/graphemes.js";
import { EditorAutocomplete } from "./editor-autocomplete.js";
import { EditorBuffer } from "./editor-buffer.js";
import type { EditorComponent, EditorOptions, EditorTheme } from "./editor-component.js";
import { renderEditorFrame } from "./editor-frame.js";
import { EditorHistory } from "./editor-history.js";
import { LayoutMemo, offsetAtColumn, type VisualLine, visualIndexOf } from "./editor-layout.js";
import { type EditorState, normalizeEditorText, stateFromText } from "./editor-text.js";
import { expandMarkers } from "./paste-markers.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const WORD_CHAR = /^[A-Za-z0-9._-]$|^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

/** Multi-line prompt editor with history, undo, kill ring, paste markers and autocomplete. */
export class Editor implements EditorComponent, Focusable {
	focused = false;
	disableSubmit = false;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	borderColor: (text: string) => string;
	private readonly buffer = new EditorBuffer((text) => this.onChange?.(text));
	private pasteBuffer: string | undefined;
	private readonly history = new EditorHistory();
	private lastAction: "kill" | "yank" | undefined;
	private jumpMode: "forward" | "backward" | undefined;
	private scrollOffset = 0;
	private paddingX: number;
	private readonly autocomplete: EditorAutocomplete;
	private lastLayout: { rows: VisualLine[]; visible: number; menuRows: number } | undefined;
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
		return expandMarkers(this.getText(), this.buffer.pastes);
	}

	setText(text: string): void {
		this.exitHistory();
		this.buffer.setState(stateFromText(text, "end"));
	}

	insertTextAtCursor(text: string): void {
		this.buffer.pushUndo();
		this.buffer.insertRaw(normalizeEditorText(text));
	}

	addToHistory(text: string): void {
		this.history.add(text);
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

	private get state(): EditorState {
		return this.buffer.state;
	}

	private get line(): string {
		return this.buffer.line;
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
			if (this.buffer.yank()) this.lastAction = "yank";
			return;
		}
		if (kb.matches(data, "tui.editor.yankPop")) {
			if (previous === "yank" && this.buffer.yankPop()) this.lastAction = "yank";
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
				this.buffer.deleteRange(
					this.state.cursorLine,
					this.state.cursorCol - 1,
					this.state.cursorLine,
					this.state.cursorCol,
				);
				this.submit();
				return;
			}
			this.buffer.pushUndo();
			this.buffer.insertRaw("\n");
			return;
		}
		if (kb.matches(data, "tui.input.submit")) {
			if (this.disableSubmit) return;
			if (this.line[this.state.cursorCol - 1] === "\\") {
				this.buffer.pushUndo();
				this.buffer.deleteRange(
					this.state.cursorLine,
					this.state.cursorCol - 1,
					this.state.cursorLine,
					this.state.cursorCol,
				);
				this.buffer.insertRaw("\n");
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
			this.buffer.kill([sl, sc, el, ec], previous === "kill", backward);
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
			const len = this.buffer.unitAfter();
			this.exitHistory();
			if (len > 0) {
				this.buffer.pushUndo();
				this.buffer.deleteRange(cursorLine, cursorCol, cursorLine, cursorCol + len);
			} else if (cursorLine < lines.length - 1) {
				this.buffer.pushUndo();
				this.buffer.deleteRange(cursorLine, cursorCol, cursorLine + 1, 0);
			}
			this.afterEdit();
			return true;
		}
		return false;
	}

	private deleteBackward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.exitHistory();
		// A paste marker is removed atomically together with its stored paste.
		if (this.buffer.deleteMarkerBefore()) {
			this.afterEdit();
			return;
		}
		const len = graphemeLengthBefore(this.line, cursorCol);
		if (len > 0) {
			this.buffer.pushUndo();
			this.buffer.deleteRange(cursorLine, cursorCol - len, cursorLine, cursorCol);
		} else if (cursorLine > 0) {
			this.buffer.pushUndo();
			this.buffer.deleteRange(cursorLine - 1, lines[cursorLine - 1]!.length, cursorLine, 0);
		}
		this.afterEdit();
	}

	private handleMotion(data: string, kb: ReturnType<typeof getKeybindings>): boolean {
		const { cursorLine, cursorCol } = this.state;
		if (kb.matches(data, "tui.editor.cursorLineStart")) this.buffer.moveCursor(cursorLine, 0);
		else if (kb.matches(data, "tui.editor.cursorLineEnd")) this.buffer.moveCursor(cursorLine, this.line.length);
		else if (kb.matches(data, "tui.editor.cursorWordLeft")) {
			if (cursorCol === 0 && cursorLine > 0)
				this.buffer.moveCursor(cursorLine - 1, this.state.lines[cursorLine - 1]!.length);
			else this.buffer.moveCursor(cursorLine, wordBoundaryLeft(this.line, cursorCol));
		} else if (kb.matches(data, "tui.editor.cursorWordRight")) {
			if (cursorCol === this.line.length && cursorLine < this.state.lines.length - 1)
				this.buffer.moveCursor(cursorLine + 1, 0);
			else this.buffer.moveCursor(cursorLine, wordBoundaryRight(this.line, cursorCol));
		} else return false;
		this.autocomplete.close();
		return true;
	}

	private horizontalMove(direction: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.autocomplete.close();
		if (direction < 0) {
			const len = this.buffer.unitBefore();
			if (len > 0) this.buffer.moveCursor(cursorLine, cursorCol - len);
			else if (cursorLine > 0) this.buffer.moveCursor(cursorLine - 1, lines[cursorLine - 1]!.length);
			return;
		}
		const len = this.buffer.unitAfter();
		if (len > 0) this.buffer.moveCursor(cursorLine, cursorCol + len);
		else if (cursorLine < lines.length - 1) this.buffer.moveCursor(cursorLine + 1, 0);
	}

	/** Up/Down: history at the edges, otherwise one visual line with a sticky column. */
	private verticalMove(direction: -1 | 1): void {
		const rows = this.layoutRows();
		const index = visualIndexOf(rows, this.state.cursorLine, this.state.cursorCol);
		if (direction < 0 && index === 0) {
			if (this.getText() === "" || this.history.browsing || this.state.cursorCol === 0) this.browseHistory(1);
			else this.buffer.moveCursor(this.state.cursorLine, 0);
			return;
		}
		if (direction > 0 && index === rows.length - 1) {
			if (this.history.browsing) this.browseHistory(-1);
			else this.buffer.moveCursor(this.state.cursorLine, this.line.length);
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
			this.buffer.preferredCol ??
			visibleWidth(this.state.lines[current.line]!.slice(current.start, this.state.cursorCol));
		const col = offsetAtColumn(rows, index + direction, this.state.lines[target.line]!, column);
		this.buffer.moveCursor(target.line, col, true);
		this.buffer.preferredCol = column;
	}

	private layoutRows(): VisualLine[] {
		return this.layoutMemo.rows(this.state.lines, this.layoutWidth(this.lastWidth), this.buffer.pastes);
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
		const offset = this.buffer.offsetBetween(0, 0, this.state.cursorLine, this.state.cursorCol);
		const found = mode === "forward" ? text.indexOf(ch, offset + 1) : text.lastIndexOf(ch, offset - 1);
		if (found < 0 || (mode === "backward" && offset === 0)) return;
		const before = text.slice(0, found).split("\n");
		this.buffer.moveCursor(before.length - 1, before[before.length - 1]!.length);
	}

	private type(text: string): void {
		this.exitHistory();
		this.buffer.pushTypingUndo(text);
		this.buffer.insertRaw(text);
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
		this.buffer.pushUndo();
		this.buffer.setState({ lines: result.lines, cursorLine: result.cursorLine, cursorCol: result.cursorCol });
	}

	private applyUndo(): void {
		if (this.buffer.applyUndo()) this.autocomplete.close();
	}

	private browseHistory(direction: 1 | -1): void {
		if (!this.history.browsing && direction > 0 && this.history.canStep(direction)) this.buffer.pushUndo();
		const next = this.history.step(direction, this.state);
		if (next) this.buffer.setState(next);
	}

	private exitHistory(): void {
		this.history.exit();
	}

	private paste(raw: string): void {
		this.autocomplete.close();
		this.exitHistory();
		this.buffer.pushUndo();
		// Some multiplexers embed Ctrl+letter as CSI-u inside pastes.
		let text = raw.replace(/\x1b\[(\d+);5u/g, (_, code: string) => String.fromCharCode(Number(code) & 0x1f));
		text = normalizeEditorText(text);
		const charBefore = this.line[this.state.cursorCol - 1];
		if (/^[/~.]/.test(text) && charBefore && /\w/.test(charBefore)) text = ` ${text}`;
		this.buffer.insertPaste(text);
	}

	private submit(): void {
		this.autocomplete.close();
		const result = expandMarkers(this.getText(), this.buffer.pastes).trim();
		this.exitHistory();
		this.scrollOffset = 0;
		this.buffer.clear();
		this.onSubmit?.(result);
	}

	// ---- mouse ---------------------------------------------------------------------------------

	/**
	 * A left click on a text row moves the cursor there; clicks on the completion menu go to it.
	 * Press, drag and release stay unhandled so the renderer's text selection works over the editor.
	 */
	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		const layout = this.lastLayout;
		const paddingX = this.effectivePadding(event.width);
		const menuTop = (layout?.visible ?? 0) + 2;
		if (layout && this.autocomplete.isOpen() && event.y >= menuTop && event.y < menuTop + layout.menuRows) {
			const result = this.autocomplete.handleMouse({
				...event,
				x: event.x - paddingX,
				y: event.y - menuTop,
				width: Math.max(1, event.width - 2 * paddingX),
				height: layout.menuRows,
			});
			return result ? { ...result, focus: true } : undefined;
		}
		if (event.type !== "click" || event.button !== "left") return undefined;
		const index = this.scrollOffset + event.y - 1;
		const row = layout?.rows[index];
		if (!layout || !row || event.y <= 0 || event.y > layout.visible) return { handled: true, focus: true };
		const column = Math.max(0, event.x - paddingX);
		this.buffer.moveCursor(row.line, offsetAtColumn(layout.rows, index, this.state.lines[row.line]!, column));
		this.lastAction = undefined;
		this.exitHistory();
		this.afterEdit();
		return { handled: true, focus: true };
	}

	// ---- rendering -------------------------------------------------------------------------

	/** A fresh array on every call: subclasses may decorate the lines they get from it (pi-tui's contract). */
	render(width: number): string[] {
		this.lastWidth = width;
		const paddingX = this.effectivePadding(width);
		const rows = this.layoutMemo.rows(this.state.lines, this.layoutWidth(width), this.buffer.pastes);
		const frame = renderEditorFrame({
			state: this.state,
			rows,
			focused: this.focused,
			width,
			paddingX,
			maxVisible: Math.max(5, Math.floor(this.tui.terminal.rows * 0.3)),
			scrollOffset: this.scrollOffset,
			borderColor: this.borderColor,
			below: this.autocomplete.render(Math.max(1, width - 2 * paddingX)),
		});
		this.scrollOffset = frame.scrollOffset;
		this.lastLayout = { rows, visible: frame.visibleRows, menuRows: frame.lines.length - frame.visibleRows - 2 };
		return frame.lines;
	}
}
