import type { MarkdownTheme, SelectListTheme, SettingsListTheme } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { builtinTheme, resolveTheme } from "../../../core/resources/themes/builtin-theme.js";
import { markdownTheme, selectListTheme, settingsListTheme } from "./component-themes.js";
import { highlightLines } from "./syntax-highlight.js";

let active: Theme | undefined;
let registered: readonly Theme[] = [];

/**
 * The theme the extension-facing helpers (`getMarkdownTheme`, `highlightCode`, `keyHint`) style with:
 * the interactive mode's current theme, or the built-in one when no interactive mode runs.
 */
export function activeTheme(): Theme {
	active ??= builtinTheme();
	return active;
}

export function setActiveTheme(theme: Theme): void {
	active = theme;
}

/** The themes `initTheme` can pick by name (the interactive mode registers the loaded ones). */
export function setRegisteredThemes(themes: readonly Theme[]): void {
	registered = themes;
}

/**
 * Makes a registered theme (or the built-in one, for no name, `system` or an unknown name) the
 * active theme. tau reloads theme files on `/reload`, so there is no file watcher to enable.
 */
export function initTheme(themeName?: string, _enableWatcher?: boolean): void {
	setActiveTheme(resolveTheme(themeName, registered).theme);
}

/** The markdown theme of the active interactive theme, for extensions that render markdown components. */
export function getMarkdownTheme(): MarkdownTheme {
	return markdownTheme(activeTheme());
}

/** The select-list theme of the active interactive theme, for extensions that build their own lists. */
export function getSelectListTheme(): SelectListTheme {
	return selectListTheme(activeTheme());
}

/** The settings-list theme of the active interactive theme, for extensions that build their own settings dialogs. */
export function getSettingsListTheme(): SettingsListTheme {
	return settingsListTheme(activeTheme());
}

/** Syntax-highlights `code` with the active theme: one styled string per line. */
export function highlightCode(code: string, lang?: string): string[] {
	return highlightLines(activeTheme(), code, lang);
}

/**
 * The theme an HTML export opens in: the current one, except the built-in theme, which suits light
 * and dark alike, so the page follows the reader's preference instead (docs/export.md).
 */
export function exportThemeOf(theme: Theme): Theme | undefined {
	return theme === builtinTheme() ? undefined : theme;
}
