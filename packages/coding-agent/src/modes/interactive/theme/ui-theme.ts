import type { Color, EditorTheme, MarkdownTheme, SelectListTheme, TextStyle } from "@tau/tui";
import { getTerminalColorMode, indexedColor, oklchColor, parseColor, rgbColor, styleText } from "@tau/tui";
import type { Theme, ThemeColor } from "../../../core/resources/index.js";
import { streamingHighlighter } from "./syntax-highlight.js";

/** Colours of the built-in theme, as xterm palette indices (readable on dark and light backgrounds). */
const BUILTIN_PALETTE: Readonly<Record<string, number>> = {
	accent: 39,
	border: 240,
	borderAccent: 39,
	borderMuted: 238,
	success: 34,
	error: 160,
	warning: 178,
	muted: 245,
	dim: 242,
	thinkingText: 244,
	selectedBg: 237,
	userMessageBg: 236,
	customMessageBg: 235,
	customMessageLabel: 141,
	toolPendingBg: 235,
	toolSuccessBg: 22,
	toolErrorBg: 52,
	toolTitle: 252,
	toolOutput: 250,
	mdHeading: 214,
	mdLink: 39,
	mdLinkUrl: 244,
	mdCode: 180,
	mdCodeBlock: 250,
	mdCodeBlockBorder: 240,
	mdQuote: 246,
	mdQuoteBorder: 240,
	mdHr: 240,
	mdListBullet: 39,
	toolDiffAdded: 34,
	toolDiffRemoved: 160,
	toolDiffContext: 244,
	syntaxComment: 242,
	syntaxKeyword: 170,
	syntaxFunction: 75,
	syntaxVariable: 117,
	syntaxString: 107,
	syntaxNumber: 173,
	syntaxType: 80,
	syntaxOperator: 250,
	syntaxPunctuation: 246,
	thinkingOff: 240,
	thinkingMinimal: 244,
	thinkingLow: 67,
	thinkingMedium: 73,
	thinkingHigh: 135,
	thinkingXhigh: 170,
	thinkingMax: 201,
	bashMode: 34,
	scrollbarTrack: 238,
	scrollbarThumb: 245,
};

/** The built-in theme as theme data, so extensions reading `ctx.ui.theme` see the same shape as files. */
export const BUILTIN_THEME: Theme = {
	name: "tau",
	colors: Object.fromEntries(
		Object.entries(BUILTIN_PALETTE).map(([token, index]) => [token, { kind: "palette", index } as ThemeColor]),
	),
	export: {
		pageBg: { kind: "rgb", r: 24, g: 24, b: 27 },
		cardBg: { kind: "rgb", r: 39, g: 39, b: 42 },
		infoBg: { kind: "rgb", r: 30, g: 41, b: 59 },
	},
};

/** A theme file's colour as a terminal colour (also used by HTML exports); undefined for the terminal default. */
export function toColor(value: ThemeColor): Color | undefined {
	switch (value.kind) {
		case "rgb":
			return rgbColor(value.r, value.g, value.b);
		case "oklch":
			return oklchColor(value.l, value.c, value.h);
		case "okhsl":
			return parseColor(`okhsl(${value.h} ${value.s * 100}% ${value.l * 100}%)`);
		case "palette":
			return indexedColor(value.index);
		default:
			// The terminal's default colour has no fixed value.
			return undefined;
	}
}

/**
 * The interactive mode's view of a theme: named tokens mapped to styling functions. Theme files are
 * data (resources.md); this is where they meet the terminal.
 */
export class UiTheme {
	private constructor(
		readonly name: string,
		private readonly colors: ReadonlyMap<string, Color>,
		/** The theme data this was built from (what `ctx.ui.theme` returns). */
		readonly source: Theme,
	) {}

	static builtin(): UiTheme {
		return UiTheme.fromResource(BUILTIN_THEME);
	}

	/** Tokens missing from (or not representable in) the theme fall back to the built-in colours. */
	static fromResource(theme: Theme): UiTheme {
		const colors = new Map(Object.entries(BUILTIN_PALETTE).map(([k, v]) => [k, indexedColor(v)] as [string, Color]));
		for (const [token, value] of Object.entries(theme.colors)) {
			const color = toColor(value);
			if (color) colors.set(token, color);
			else if (value.kind === "default") colors.delete(token);
		}
		return new UiTheme(theme.name, colors, theme);
	}

	style(text: string, style: TextStyle): string {
		return styleText(text, style, getTerminalColorMode());
	}

	fg(token: string, text: string): string {
		const color = this.colors.get(token);
		return color ? this.style(text, { fg: color }) : text;
	}

	bg(token: string, text: string): string {
		const color = this.colors.get(token);
		return color ? this.style(text, { bg: color }) : text;
	}

	bold(text: string): string {
		return this.style(text, { bold: true });
	}

	dim(text: string): string {
		return this.style(text, { dim: true });
	}

	italic(text: string): string {
		return this.style(text, { italic: true });
	}

	thinkingBorder(level: string): (text: string) => string {
		const token = `thinking${level.charAt(0).toUpperCase()}${level.slice(1)}`;
		return (text) => this.fg(this.colors.has(token) ? token : "border", text);
	}

	markdown(): MarkdownTheme {
		return {
			heading: (t) => this.bold(this.fg("mdHeading", t)),
			link: (t) => this.fg("mdLink", t),
			linkUrl: (t) => this.fg("mdLinkUrl", t),
			code: (t) => this.fg("mdCode", t),
			codeBlock: (t) => this.fg("mdCodeBlock", t),
			codeBlockBorder: (t) => this.fg("mdCodeBlockBorder", t),
			quote: (t) => this.italic(this.fg("mdQuote", t)),
			quoteBorder: (t) => this.fg("mdQuoteBorder", t),
			hr: (t) => this.fg("mdHr", t),
			listBullet: (t) => this.fg("mdListBullet", t),
			bold: (t) => this.bold(t),
			italic: (t) => this.italic(t),
			strikethrough: (t) => this.style(t, { strikethrough: true }),
			underline: (t) => this.style(t, { underline: true }),
			// Per Markdown component: its streaming code block is highlighted incrementally.
			highlightCode: streamingHighlighter(this),
		};
	}

	selectList(): SelectListTheme {
		return {
			selectedPrefix: (t) => this.fg("accent", t),
			selectedText: (t) => this.bold(this.fg("accent", t)),
			description: (t) => this.fg("muted", t),
			scrollInfo: (t) => this.fg("dim", t),
			noMatch: (t) => this.fg("muted", t),
		};
	}

	editor(borderColor: (text: string) => string): EditorTheme {
		return { borderColor, selectList: this.selectList() };
	}
}

/**
 * Picks the theme named by `--theme`/settings among the loaded themes; the built-in theme otherwise.
 * Returns a warning when a requested theme is not available.
 */
export function resolveUiTheme(
	requested: string | undefined,
	available: readonly Theme[],
): { theme: UiTheme; warning?: string } {
	if (!requested) return { theme: UiTheme.builtin() };
	const found = available.find((theme) => theme.name === requested);
	if (found) return { theme: UiTheme.fromResource(found) };
	return { theme: UiTheme.builtin(), warning: `Theme "${requested}" not found; using the built-in theme` };
}

/**
 * The theme an HTML export opens in: the current one, except the built-in theme, which suits light
 * and dark alike, so the page follows the reader's preference instead (docs/export.md).
 */
export function exportThemeOf(theme: UiTheme): Theme | undefined {
	return theme.source === BUILTIN_THEME ? undefined : theme.source;
}
