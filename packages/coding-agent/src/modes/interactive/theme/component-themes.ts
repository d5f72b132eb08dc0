import type { EditorTheme, MarkdownTheme, SelectListTheme, SettingsListTheme } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { streamingHighlighter } from "./syntax-highlight.js";

/** How markdown (messages, extension `Markdown` components) renders with a theme. */
export function markdownTheme(theme: Theme): MarkdownTheme {
	return {
		heading: (t) => theme.bold(theme.fg("mdHeading", t)),
		link: (t) => theme.fg("mdLink", t),
		linkUrl: (t) => theme.fg("mdLinkUrl", t),
		code: (t) => theme.fg("mdCode", t),
		codeBlock: (t) => theme.fg("mdCodeBlock", t),
		codeBlockBorder: (t) => theme.fg("mdCodeBlockBorder", t),
		quote: (t) => theme.italic(theme.fg("mdQuote", t)),
		quoteBorder: (t) => theme.fg("mdQuoteBorder", t),
		hr: (t) => theme.fg("mdHr", t),
		listBullet: (t) => theme.fg("mdListBullet", t),
		bold: (t) => theme.bold(t),
		italic: (t) => theme.italic(t),
		strikethrough: (t) => theme.strikethrough(t),
		underline: (t) => theme.underline(t),
		// Per Markdown component: its streaming code block is highlighted incrementally.
		highlightCode: streamingHighlighter(theme),
	};
}

export function selectListTheme(theme: Theme): SelectListTheme {
	return {
		selectedPrefix: (t) => theme.fg("accent", t),
		selectedText: (t) => theme.bold(theme.fg("accent", t)),
		description: (t) => theme.fg("muted", t),
		scrollInfo: (t) => theme.fg("dim", t),
		noMatch: (t) => theme.fg("muted", t),
	};
}

export function editorTheme(theme: Theme, borderColor: (text: string) => string): EditorTheme {
	return { borderColor, selectList: selectListTheme(theme) };
}

export function settingsListTheme(theme: Theme): SettingsListTheme {
	return {
		label: (t, selected) => (selected ? theme.fg("accent", t) : t),
		value: (t, selected) => theme.fg(selected ? "accent" : "muted", t),
		description: (t) => theme.fg("dim", t),
		cursor: theme.fg("accent", "→ "),
		hint: (t) => theme.fg("dim", t),
	};
}
