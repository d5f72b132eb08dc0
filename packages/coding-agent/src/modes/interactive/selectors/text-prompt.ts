import { Input, type KeybindingsManager, sanitizeTerminalText } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import type { DialogCountdown } from "./dialog-title.js";
import { FieldDialog } from "./field-dialog.js";
import { prefillInput } from "./input-prefill.js";

/** A titled one-line input shown in place of the editor (`/tree` labels, extension `input`). */
export function textPrompt(
	theme: Theme,
	keys: KeybindingsManager,
	title: string,
	options: { placeholder?: string; prefill?: string; countdown?: DialogCountdown; maxRows?: () => number },
	finish: (value: string | undefined) => void,
): FieldDialog {
	// An extension's placeholder reaches the terminal: shown sanitised, on one line.
	const placeholder = options.placeholder && sanitizeTerminalText(options.placeholder).replace(/\n/g, " ");
	const input = new Input({ prompt: "› ", ...(placeholder ? { placeholder } : {}) });
	if (options.prefill) prefillInput(input, options.prefill);
	const hint = "Enter to confirm · Escape to cancel";
	const dialog = new FieldDialog(
		theme,
		keys,
		title,
		input,
		{ hint, ruled: true, countdown: options.countdown, maxRows: options.maxRows },
		finish,
	);
	input.onSubmit = (value) => dialog.close(value);
	input.onEscape = () => dialog.close(undefined);
	return dialog;
}
