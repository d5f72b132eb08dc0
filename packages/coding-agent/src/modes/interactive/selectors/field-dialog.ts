import {
	type Component,
	type Focusable,
	type KeybindingsManager,
	type TuiMouseEvent,
	type TuiMouseEventResult,
	truncateToWidth,
} from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { type DialogCountdown, DialogTitleWindow } from "./dialog-title.js";

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
	/** Rows the dialog may take: a taller title scrolls (`DialogTitleWindow`). */
	maxRows?: () => number;
}

/**
 * A titled text field shown in place of the prompt editor: Escape (`tui.select.cancel`) cancels, the
 * field submits through `close`; it finishes once.
 */
export class FieldDialog implements Component, Focusable {
	private readonly titleWindow: DialogTitleWindow;
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: Theme,
		private readonly keys: KeybindingsManager,
		private readonly title: string,
		private readonly field: DialogField,
		private readonly layout: FieldDialogLayout,
		private readonly finish: (value: string | undefined) => void,
	) {
		this.titleWindow = new DialogTitleWindow(theme, layout.maxRows);
	}

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
		if (this.titleWindow.handleInput(data)) return;
		this.field.handleInput?.(data);
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		return this.titleWindow.handleMouse(event);
	}

	invalidate(): void {
		this.field.invalidate();
	}

	render(width: number): readonly string[] {
		const rule = this.layout.ruled ? [this.theme.fg("borderAccent", "─".repeat(width))] : [];
		const body = [...this.field.render(width), truncateToWidth(this.theme.fg("dim", this.layout.hint), width)];
		const seconds = this.layout.countdown?.seconds;
		const title = this.titleWindow.render(this.title, width, body.length + 2 * rule.length, seconds);
		return [...rule, ...title, ...body, ...rule];
	}
}
