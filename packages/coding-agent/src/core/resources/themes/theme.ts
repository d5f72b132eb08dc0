import {
	backgroundAnsi,
	type Color,
	colorToRgb,
	foregroundAnsi,
	getTerminalColorMode,
	parseColor,
	styleText,
	type TextStyle,
} from "@tau/tui/colors";
import type { SourceInfo } from "../types.js";
import { resolveThemeColor, type ThemeColorValue } from "./theme-colors.js";
import {
	isBackgroundToken,
	OPTIONAL_THEME_TOKENS,
	REQUIRED_THEME_TOKENS,
	type ThemeBg,
	type ThemeColor,
	type ThemeColorValues,
	type ThemeToken,
} from "./theme-tokens.js";
import type { ThemeDefinition } from "./themes.js";

/** How many colours the terminal shows ("truecolor" or "256color"). */
type ColorMode = ReturnType<typeof getTerminalColorMode>;

/** The background a theme is designed for. */
export type ThemeAppearance = "dark" | "light";

/** Text attributes plus a token (or a concrete colour) for each slot; a token is only accepted in its own slot. */
export interface ThemeStyle extends Omit<TextStyle, "fg" | "bg"> {
	fg?: ThemeColor | Color;
	bg?: ThemeBg | Color;
}

export interface ThemeOptions {
	name?: string;
	sourcePath?: string;
	sourceInfo?: SourceInfo;
	appearance?: ThemeAppearance;
	definition?: ThemeDefinition;
}

const ALL_TOKENS: readonly ThemeToken[] = [
	...REQUIRED_THEME_TOKENS,
	...(Object.keys(OPTIONAL_THEME_TOKENS) as ThemeToken[]),
];

/** Terminal default colours when a token says "use the terminal's colour" and the terminal did not report it. */
const DEFAULT_COLORS: Readonly<Record<ThemeAppearance, { foreground: Color; background: Color }>> = {
	dark: { foreground: { kind: "rgb", r: 229, g: 229, b: 231 }, background: { kind: "rgb", r: 0, g: 0, b: 0 } },
	light: { foreground: { kind: "rgb", r: 0, g: 0, b: 0 }, background: { kind: "rgb", r: 255, g: 255, b: 255 } },
};

/** A theme file's colour as a terminal colour (HTML exports use it too); undefined for the terminal default. */
export function toColor(value: ThemeColorValue): Color | undefined {
	switch (value.kind) {
		case "rgb":
		case "oklch":
			return value;
		case "okhsl":
			return parseColor(`okhsl(${value.h} ${value.s * 100}% ${value.l * 100}%)`);
		case "palette":
			return { kind: "indexed", index: value.index };
		default:
			return undefined;
	}
}

/** A parsed colour written back in theme-file syntax (lossless: numbers print exactly). */
function colorText(value: ThemeColorValue): string | number {
	switch (value.kind) {
		case "rgb":
			return `#${[value.r, value.g, value.b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
		case "oklch":
			return `oklch(${value.l} ${value.c} ${value.h})`;
		case "okhsl":
			return `okhsl(${value.h} ${value.s * 100}% ${value.l * 100}%)`;
		case "palette":
			return value.index;
		default:
			return "";
	}
}

/** Relative luminance (0..1) of the colours a theme fixes; palette 0-15 follow the user's terminal, so they do not count. */
function appearanceOf(colors: Iterable<Color>): ThemeAppearance | undefined {
	const fixed = [...colors].filter((color) => color.kind !== "indexed" || color.index >= 16);
	if (fixed.length === 0) return undefined;
	const luminance =
		fixed.reduce((sum, color) => {
			const { r, g, b } = colorToRgb(color);
			return sum + (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
		}, 0) / fixed.length;
	return luminance > 0.5 ? "light" : "dark";
}

/** `COLORFGBG`'s background index: 0-6 and 8 are dark, 7 and 9-15 light (docs/themes.md). */
function terminalAppearance(): ThemeAppearance {
	const last = process.env.COLORFGBG?.split(";").pop()?.trim() ?? "";
	if (!/^\d+$/.test(last)) return "dark";
	const index = Number(last);
	return index <= 6 || index === 8 || index > 15 ? "dark" : "light";
}

/**
 * A theme as extensions and the interactive mode use it (docs/themes.md): each token mapped to a
 * terminal colour, and the helpers that style text with them. Theme files are data
 * (`ThemeDefinition`); this is where they meet the terminal.
 */
export class Theme {
	readonly name: string;
	readonly sourcePath?: string;
	sourceInfo?: SourceInfo;
	/** The theme file's data when loaded from one: HTML exports read its colours and `export` section. */
	readonly definition?: ThemeDefinition;
	/** `undefined` until asked: the terminal's colour mode is read per call, so late capability changes apply. */
	private readonly mode: ColorMode | undefined;
	/** A token without a colour uses the terminal's default colour for its slot. */
	private readonly tokens: ReadonlyMap<ThemeToken, Color | undefined>;
	private readonly ownAppearance: ThemeAppearance | undefined;

	/**
	 * Colours are hex strings (`#rrggbb`), `oklch(…)`/`okhsl(…)`, xterm palette indices, or `""` for the
	 * terminal default; optional tokens fall back like theme files do. Throws on an invalid colour.
	 */
	constructor(
		fgColors: Pick<ThemeColorValues<string | number>, ThemeColor>,
		bgColors: Pick<ThemeColorValues<string | number>, ThemeBg>,
		mode?: ColorMode,
		options: ThemeOptions = {},
	) {
		const values: Partial<Record<ThemeToken, string | number>> = { ...fgColors, ...bgColors };
		const tokens = new Map<ThemeToken, Color | undefined>();
		for (const token of ALL_TOKENS) {
			const fallback = (OPTIONAL_THEME_TOKENS as Readonly<Record<string, ThemeToken>>)[token];
			const value = values[token] ?? (fallback === undefined ? undefined : values[fallback]);
			if (value === undefined) throw new Error(`Theme color "${token}" is missing`);
			const resolved = resolveThemeColor(value, {});
			if ("error" in resolved) throw new Error(`Theme color "${token}": ${resolved.error}`);
			tokens.set(token, toColor(resolved));
		}
		this.name = options.name ?? "custom";
		if (options.sourcePath !== undefined) this.sourcePath = options.sourcePath;
		if (options.sourceInfo !== undefined) this.sourceInfo = options.sourceInfo;
		if (options.definition !== undefined) this.definition = options.definition;
		this.mode = mode;
		this.tokens = tokens;
		this.ownAppearance =
			options.appearance ?? appearanceOf([...tokens.values()].filter((color) => color !== undefined));
	}

	/** A theme from validated theme data; tokens the data leaves out use the terminal default. */
	static fromDefinition(definition: ThemeDefinition, mode?: ColorMode): Theme {
		const values = Object.fromEntries(
			ALL_TOKENS.map((token) => {
				const value = definition.colors[token];
				return [token, value ? colorText(value) : ""];
			}),
		) as Record<ThemeToken, string | number>;
		return new Theme(values, values, mode, {
			name: definition.name,
			definition,
			...(definition.sourcePath !== undefined ? { sourcePath: definition.sourcePath } : {}),
			...(definition.sourceInfo !== undefined ? { sourceInfo: definition.sourceInfo } : {}),
			...(definition.appearance !== undefined ? { appearance: definition.appearance } : {}),
		});
	}

	/** Declared by the theme, else judged from its colours, else the terminal's (`COLORFGBG`). */
	get appearance(): ThemeAppearance {
		return this.ownAppearance ?? terminalAppearance();
	}

	/** A concrete colour for every token; terminal-default tokens get a likely colour for the appearance. */
	get colors(): Readonly<Record<ThemeToken, Color>> {
		const defaults = DEFAULT_COLORS[this.appearance];
		const colors = {} as Record<ThemeToken, Color>;
		for (const [token, color] of this.tokens) {
			colors[token] = color ?? (isBackgroundToken(token) ? defaults.background : defaults.foreground);
		}
		return Object.freeze(colors);
	}

	getColorMode(): ColorMode {
		return this.mode ?? getTerminalColorMode();
	}

	style(text: string, options: ThemeStyle): string {
		const { fg, bg, ...attributes } = options;
		const open = [
			fg === undefined ? "" : typeof fg === "string" ? this.getFgAnsi(fg) : foregroundAnsi(fg, this.getColorMode()),
			bg === undefined ? "" : typeof bg === "string" ? this.getBgAnsi(bg) : backgroundAnsi(bg, this.getColorMode()),
		].join("");
		const close = `${bg === undefined ? "" : "\x1b[49m"}${fg === undefined ? "" : "\x1b[39m"}`;
		const styled = styleText(text, attributes as TextStyle, this.getColorMode());
		return open === "" ? styled : `${open}${styled}${close}`;
	}

	fg(color: ThemeColor, text: string): string {
		return `${this.getFgAnsi(color)}${text}\x1b[39m`;
	}

	bg(color: ThemeBg, text: string): string {
		return `${this.getBgAnsi(color)}${text}\x1b[49m`;
	}

	bold(text: string): string {
		return styleText(text, { bold: true });
	}

	/** Faint text (SGR 2), independent of the `dim` colour token. */
	dim(text: string): string {
		return styleText(text, { dim: true });
	}

	italic(text: string): string {
		return styleText(text, { italic: true });
	}

	underline(text: string): string {
		return styleText(text, { underline: true });
	}

	inverse(text: string): string {
		return styleText(text, { inverse: true });
	}

	strikethrough(text: string): string {
		return styleText(text, { strikethrough: true });
	}

	/** The escape sequence that starts a foreground token's colour. */
	getFgAnsi(color: ThemeColor): string {
		return this.tokenAnsi(color, "fg");
	}

	/** The escape sequence that starts a background token's colour. */
	getBgAnsi(color: ThemeBg): string {
		return this.tokenAnsi(color, "bg");
	}

	/** The border colour of the editor for a thinking level (`thinkingOff` … `thinkingMax`). */
	getThinkingBorderColor(level: string): (text: string) => string {
		const token = `thinking${level.charAt(0).toUpperCase()}${level.slice(1)}`;
		const known = this.tokens.has(token as ThemeToken) && !isBackgroundToken(token);
		return (text) => this.fg(known ? (token as ThemeColor) : "thinkingOff", text);
	}

	getBashModeBorderColor(): (text: string) => string {
		return (text) => this.fg("bashMode", text);
	}

	private tokenAnsi(token: string, slot: "fg" | "bg"): string {
		if (!this.tokens.has(token as ThemeToken) || isBackgroundToken(token) !== (slot === "bg")) {
			throw new Error(`Unknown theme color: ${token}`);
		}
		const color = this.tokens.get(token as ThemeToken);
		if (!color) return slot === "fg" ? "\x1b[39m" : "\x1b[49m";
		return slot === "fg" ? foregroundAnsi(color, this.getColorMode()) : backgroundAnsi(color, this.getColorMode());
	}
}
