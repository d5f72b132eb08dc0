import { type Component, Editor, type Focusable, type KeybindingsManager, type TUI, truncateToWidth } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type DialogCountdown, dialogTitleLines } from "./dialog-title.js";

/**
 * A titled multi-line editor shown in place of the prompt editor (extension `editor`): Enter
 * submits, Shift+Enter adds a line, Escape cancels; the text keeps its newlines.
 */
export class EditorDialog implements Component, Focusable {
	private readonly editor: Editor;
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
		tui: Pick<TUI, "requestRender" | "terminal">,
		private readonly title: string,
		options: { prefill?: string; countdown?: DialogCountdown },
		private readonly finish: (value: string | undefined) => void,
	) {
		this.countdown = options.countdown;
		this.editor = new Editor(
			tui,
			theme.editor((text) => theme.fg("borderAccent", text)),
		);
		if (options.prefill) this.editor.setText(options.prefill);
		this.editor.onSubmit = (text) => this.close(text);
	}

	private readonly countdown: DialogCountdown | undefined;

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.editor.focused = value;
	}

	private close(value: string | undefined): void {
		if (this.done) return;
		this.done = true;
		this.finish(value);
	}

	handleInput(data: string): void {
		if (this.keys.matches(data, "tui.select.cancel")) {
			this.close(undefined);
			return;
		}
		this.editor.handleInput(data);
	}

	invalidate(): void {
		this.editor.invalidate();
	}

	render(width: number): readonly string[] {
		const hint = "Enter to submit · Shift+Enter for a new line · Escape to cancel";
		return [
			...dialogTitleLines(this.theme, this.title, width, this.countdown?.seconds),
			...this.editor.render(width),
			truncateToWidth(this.theme.fg("dim", hint), width),
		];
	}
}
