import { type Component, type Focusable, type KeybindingsManager, truncateToWidth } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type DialogCountdown, dialogTitleLines } from "./dialog-title.js";

/** The text field a dialog asks with: a one-line input or a multi-line editor. */
export interface DialogField extends Component {
	focused: boolean;
}

export interface FieldDialogLayout {
	/** The key hint under the field. */
	hint: string;
	/** Rules above and below (the one-line prompt has them; the editor draws its own border). */
	ruled: boolean;
	countdown?: DialogCountdown;
}

/**
 * A titled text field shown in place of the prompt editor: Escape (`tui.select.cancel`) cancels, the
 * field submits through `close`; it finishes once.
 */
export class FieldDialog implements Component, Focusable {
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
		private readonly title: string,
		private readonly field: DialogField,
		private readonly layout: FieldDialogLayout,
		private readonly finish: (value: string | undefined) => void,
	) {}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.field.focused = value;
	}

	close(value: string | undefined): void {
		if (this.done) return;
		this.done = true;
		this.finish(value);
	}

	handleInput(data: string): void {
		if (this.keys.matches(data, "tui.select.cancel")) {
			this.close(undefined);
			return;
		}
		this.field.handleInput?.(data);
	}

	invalidate(): void {
		this.field.invalidate();
	}

	render(width: number): readonly string[] {
		const rule = this.layout.ruled ? [this.theme.fg("borderAccent", "─".repeat(width))] : [];
		return [
			...rule,
			...dialogTitleLines(this.theme, this.title, width, this.layout.countdown?.seconds),
			...this.field.render(width),
			truncateToWidth(this.theme.fg("dim", this.layout.hint), width),
			...rule,
		];
	}
}
