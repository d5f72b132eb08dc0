import { Editor, type KeybindingsManager, type TUI } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { editorTheme } from "../theme/component-themes.js";
import type { DialogCountdown } from "./dialog-title.js";
import { FieldDialog } from "./field-dialog.js";

/**
 * A titled multi-line editor shown in place of the prompt editor (extension `editor`): Enter
 * submits, Shift+Enter adds a line, Escape cancels; the text keeps its newlines.
 */
export function editorDialog(
	theme: Theme,
	keys: KeybindingsManager,
	tui: Pick<TUI, "requestRender" | "terminal">,
	title: string,
	options: { prefill?: string; countdown?: DialogCountdown; maxRows?: () => number },
	finish: (value: string | undefined) => void,
): FieldDialog {
	const editor = new Editor(
		tui,
		editorTheme(theme, (text) => theme.fg("borderAccent", text)),
	);
	if (options.prefill) editor.setText(options.prefill);
	const hint = "Enter to submit · Shift+Enter for a new line · Escape to cancel";
	const dialog = new FieldDialog(
		theme,
		keys,
		title,
		editor,
		{ hint, ruled: false, countdown: options.countdown, maxRows: options.maxRows },
		finish,
	);
	editor.onSubmit = (text) => dialog.close(text);
	return dialog;
}
