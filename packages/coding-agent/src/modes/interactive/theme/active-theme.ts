import { highlightLines } from "./syntax-highlight.js";
import { UiTheme } from "./ui-theme.js";

let active: UiTheme | undefined;

/**
 * The theme the extension-facing helpers (`highlightCode`, `keyHint`) style with: the interactive
 * mode's current theme, or the built-in one when no interactive mode runs (like `getKeybindings()`).
 */
export function activeUiTheme(): UiTheme {
	active ??= UiTheme.builtin();
	return active;
}

export function setActiveUiTheme(theme: UiTheme): void {
	active = theme;
}

/** Syntax-highlights `code` with the active theme: one styled string per line. */
export function highlightCode(code: string, lang?: string): string[] {
	return highlightLines(activeUiTheme(), code, lang);
}
