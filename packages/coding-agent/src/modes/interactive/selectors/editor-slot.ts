import {
	type Component,
	type Container,
	isFocusable,
	type KeybindingsManager,
	type SelectItem,
	type TUI,
} from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import type { AskOptions, PickOptions } from "../commands/command-host.js";
import { DialogCountdown } from "./dialog-title.js";
import { editorDialog } from "./editor-dialog.js";
import { SelectDialog } from "./select-dialog.js";
import { textPrompt } from "./text-prompt.js";

const RESERVED_ROWS = 4;

/**
 * The region that holds the editor; pickers, prompts and extension components take its place
 * (one at a time) and give it back when they close.
 */
export class EditorSlot {
	private closeCurrent: (() => void) | undefined;
	/**
	 * Rows a dialog may take: the screen less the transcript's last row, the status line and the
	 * footer, so its choices are never pushed off screen (a taller title scrolls instead).
	 */
	private readonly dialogRows = () => Math.max(6, this.tui.terminal.rows - RESERVED_ROWS);

	constructor(
		private readonly tui: TUI,
		private readonly slot: Container,
		private editor: Component,
		private readonly theme: () => Theme,
		private readonly keys: KeybindingsManager,
	) {
		slot.addChild(editor);
	}

	/** Puts another editor in the slot (`setEditorComponent`); a dialog on show keeps its place until it closes. */
	replaceEditor(editor: Component): void {
		this.editor = editor;
		if (this.closeCurrent) return;
		this.slot.clear();
		this.slot.addChild(editor);
		this.tui.setFocus(editor);
		this.tui.requestRender();
	}

	/** Shows `component` instead of the editor until the returned function is called. */
	show(component: Component): () => void {
		this.closeCurrent?.();
		this.slot.clear();
		this.slot.addChild(component);
		this.tui.setFocus(isFocusable(component) || component.handleInput ? component : this.editor);
		this.tui.requestRender();
		const close = () => {
			if (this.closeCurrent !== close) return;
			this.closeCurrent = undefined;
			this.slot.clear();
			this.slot.addChild(this.editor);
			this.tui.setFocus(this.editor);
			this.tui.requestRender();
		};
		this.closeCurrent = close;
		return close;
	}

	pick(title: string, items: SelectItem[], options: PickOptions = {}): Promise<SelectItem | undefined> {
		const { timeoutMs, ...rest } = options;
		return this.dialog(timeoutMs, options.signal, (countdown, finish) => {
			return new SelectDialog(
				this.theme(),
				this.keys,
				{ title, items, ...rest, countdown, maxRows: this.dialogRows },
				finish,
			);
		});
	}

	ask(title: string, options: AskOptions = {}): Promise<string | undefined> {
		const { signal, timeoutMs, ...fields } = options;
		return this.dialog(timeoutMs, signal, (countdown, finish) => {
			return textPrompt(this.theme(), this.keys, title, { ...fields, countdown, maxRows: this.dialogRows }, finish);
		});
	}

	/** A multi-line editor dialog (extension `editor`); the text keeps its newlines. */
	edit(title: string, options: { prefill?: string; signal?: AbortSignal } = {}): Promise<string | undefined> {
		return this.dialog(undefined, options.signal, (countdown, finish) => {
			const fields = {
				...(options.prefill ? { prefill: options.prefill } : {}),
				countdown,
				maxRows: this.dialogRows,
			};
			return editorDialog(this.theme(), this.keys, this.tui, title, fields, finish);
		});
	}

	/** Shows a dialog until it finishes or `signal` aborts; with a timeout, its countdown ticks on screen. */
	private dialog<T>(
		timeoutMs: number | undefined,
		signal: AbortSignal | undefined,
		create: (countdown: DialogCountdown | undefined, finish: (value: T | undefined) => void) => Component,
	): Promise<T | undefined> {
		return new Promise((resolve) => {
			let close = () => {};
			const countdown =
				timeoutMs !== undefined ? new DialogCountdown(timeoutMs, () => this.tui.requestRender()) : undefined;
			const finish = (value: T | undefined) => {
				countdown?.stop();
				close();
				resolve(value);
			};
			close = this.show(create(countdown, finish));
			signal?.addEventListener("abort", () => finish(undefined), { once: true });
		});
	}
}
