/** The colour tokens of a theme (docs/themes.md): names, which slot each colours, and fallbacks. */

export const REQUIRED_THEME_TOKENS = [
	"accent",
	"border",
	"borderAccent",
	"borderMuted",
	"success",
	"error",
	"warning",
	"muted",
	"dim",
	"text",
	"thinkingText",
	"selectedBg",
	"userMessageBg",
	"userMessageText",
	"customMessageBg",
	"customMessageText",
	"customMessageLabel",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
	"toolTitle",
	"toolOutput",
	"mdHeading",
	"mdLink",
	"mdLinkUrl",
	"mdCode",
	"mdCodeBlock",
	"mdCodeBlockBorder",
	"mdQuote",
	"mdQuoteBorder",
	"mdHr",
	"mdListBullet",
	"toolDiffAdded",
	"toolDiffRemoved",
	"toolDiffContext",
	"syntaxComment",
	"syntaxKeyword",
	"syntaxFunction",
	"syntaxVariable",
	"syntaxString",
	"syntaxNumber",
	"syntaxType",
	"syntaxOperator",
	"syntaxPunctuation",
	"thinkingOff",
	"thinkingMinimal",
	"thinkingLow",
	"thinkingMedium",
	"thinkingHigh",
	"thinkingXhigh",
	"bashMode",
] as const;

/** Optional tokens and the token each falls back to. */
export const OPTIONAL_THEME_TOKENS = {
	scrollbarTrack: "muted",
	scrollbarThumb: "text",
	searchMatchBg: "selectedBg",
	searchMatchText: "text",
	thinkingMax: "thinkingXhigh",
} as const satisfies Readonly<Record<string, string>>;

/** Tokens that colour a background; every other token colours text. */
export const BACKGROUND_THEME_TOKENS = [
	"selectedBg",
	"searchMatchBg",
	"userMessageBg",
	"customMessageBg",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
] as const;

/** Every token name a theme defines (after fallbacks). */
export type ThemeToken = (typeof REQUIRED_THEME_TOKENS)[number] | keyof typeof OPTIONAL_THEME_TOKENS;
/** A background token (`theme.bg`). */
export type ThemeBg = (typeof BACKGROUND_THEME_TOKENS)[number];
/** A foreground token (`theme.fg`). */
export type ThemeColor = Exclude<ThemeToken, ThemeBg>;
/** One value per token: required tokens must be given, optional ones fall back. */
export type ThemeColorValues<Value> = { [K in (typeof REQUIRED_THEME_TOKENS)[number]]: Value } & {
	[K in keyof typeof OPTIONAL_THEME_TOKENS]?: Value;
};

export function isBackgroundToken(token: string): token is ThemeBg {
	return (BACKGROUND_THEME_TOKENS as readonly string[]).includes(token);
}
