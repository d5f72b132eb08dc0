import { Theme } from "./theme.js";
import { OPTIONAL_THEME_TOKENS, REQUIRED_THEME_TOKENS } from "./theme-tokens.js";

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

/** The name of the built-in theme (also what `theme: "system"` selects). */
export const BUILTIN_THEME_NAME = "tau";

let builtin: Theme | undefined;

/** The built-in theme; tokens it leaves out (`text`, message texts, search) use the terminal's colours. */
export function builtinTheme(): Theme {
	if (!builtin) {
		const values: Record<string, string | number> = Object.fromEntries(
			[...REQUIRED_THEME_TOKENS, ...Object.keys(OPTIONAL_THEME_TOKENS)].map((token) => [token, ""]),
		);
		Object.assign(values, BUILTIN_PALETTE);
		builtin = new Theme(values as never, values as never, undefined, { name: BUILTIN_THEME_NAME });
	}
	return builtin;
}

/**
 * Picks the theme named by `--theme`/settings among the loaded themes; the built-in theme otherwise.
 * Returns a warning when a requested theme is not available.
 */
export function resolveTheme(
	requested: string | undefined,
	available: readonly Theme[],
): { theme: Theme; warning?: string } {
	if (!requested || requested === "system") return { theme: builtinTheme() };
	const found = available.find((theme) => theme.name === requested);
	if (found) return { theme: found };
	return { theme: builtinTheme(), warning: `Theme "${requested}" not found; using the built-in theme` };
}
