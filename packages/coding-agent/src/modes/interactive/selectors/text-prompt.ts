import {
	type Component,
	type Focusable,
	Input,
	type KeybindingsManager,
	sanitizeTerminalText,
	truncateToWidth,
} from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { prefillInput } from "./input-prefill.js";

/** A titled one-line input shown in place of the editor (`/tree` labels, extension `input`). */
export class TextPrompt implements Component, Focusable {
	private readonly input: Input;
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
		private readonly title: string,
		options: { placeholder?: string; prefill?: string },
		private readonly finish: (value: string | undefined) => void,
	) {
		const placeholder = options.placeholder && sanitizeTerminalText(options.placeholder).replace(/\n/g, " ");
		this.input = new Input({ prompt: "› ", ...(placeholder ? { placeholder } : {}) });
		if (options.prefill) prefillInput(this.input, options.prefill);
		this.input.onSubmit = (value) => this.close(value);
		this.input.onEscape = () => this.close(undefined);
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
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
		this.input.handleInput(data);
	}

	invalidate(): void {
		this.input.invalidate();
	}

	render(width: number): readonly string[] {
		const border = this.theme.fg("borderAccent", "─".repeat(width));
		return [
			border,
			truncateToWidth(this.theme.bold(sanitizeTerminalText(this.title).replace(/\n/g, " ")), width),
			...this.input.render(width),
			truncateToWidth(this.theme.fg("dim", "Enter to confirm · Escape to cancel"), width),
			border,
		];
	}
}
