/** Colours and text attributes as terminal SGR sequences, in true colour or the xterm 256-colour palette. */
import type { RgbColor } from "../tui/terminal-colors.js";
import { type Color, CUBE_LEVELS, colorToRgb } from "./color.js";

/** How colours are sent to the terminal: 24-bit, or the nearest entry of the 256-colour palette. */
export type TerminalColorMode = "256color" | "truecolor";

/** Text attributes such as bold, italic and underline. */
export interface TextAttributes {
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	inverse?: boolean;
	strikethrough?: boolean;
}

/** Text attributes plus foreground and background colours, turned into escape sequences by `styleText`. */
export interface TextStyle extends TextAttributes {
	fg?: Color;
	bg?: Color;
}

const GRAY_LEVELS = Array.from({ length: 24 }, (_, index) => 8 + index * 10);

function closestIndex(levels: readonly number[], target: number): number {
	let best = 0;
	for (let index = 1; index < levels.length; index++) {
		if (Math.abs(target - levels[index]!) < Math.abs(target - levels[best]!)) best = index;
	}
	return best;
}

/** Squared distance weighted by the eye's sensitivity to each channel. */
function perceivedDistance(first: RgbColor, second: RgbColor): number {
	return 0.299 * (first.r - second.r) ** 2 + 0.587 * (first.g - second.g) ** 2 + 0.114 * (first.b - second.b) ** 2;
}

/** The nearest palette entry: the colour cube, or the gray ramp for nearly neutral colours that sit closer to it. */
function rgbToAnsi256(color: RgbColor): number {
	const [r, g, b] = [
		closestIndex(CUBE_LEVELS, color.r),
		closestIndex(CUBE_LEVELS, color.g),
		closestIndex(CUBE_LEVELS, color.b),
	];
	const cube = { r: CUBE_LEVELS[r]!, g: CUBE_LEVELS[g]!, b: CUBE_LEVELS[b]! };
	const luma = Math.round(0.299 * color.r + 0.587 * color.g + 0.114 * color.b);
	const grayIndex = closestIndex(GRAY_LEVELS, luma);
	const gray = GRAY_LEVELS[grayIndex]!;
	const spread = Math.max(color.r, color.g, color.b) - Math.min(color.r, color.g, color.b);
	if (spread < 10 && perceivedDistance(color, { r: gray, g: gray, b: gray }) < perceivedDistance(color, cube)) {
		return 232 + grayIndex;
	}
	return 16 + 36 * r + 6 * g + b;
}

function colorAnsi(color: Color, mode: TerminalColorMode, base: 38 | 48): string {
	if (color.kind === "indexed") return `\x1b[${base};5;${color.index}m`;
	const rgb = colorToRgb(color);
	if (mode === "truecolor") return `\x1b[${base};2;${Math.round(rgb.r)};${Math.round(rgb.g)};${Math.round(rgb.b)}m`;
	return `\x1b[${base};5;${rgbToAnsi256(rgb)}m`;
}

/** The escape sequence that sets `color` as foreground, downgraded to 256 colours when `mode` asks for it. */
export function foregroundAnsi(color: Color, mode: TerminalColorMode = "truecolor"): string {
	return colorAnsi(color, mode, 38);
}

/** The escape sequence that sets `color` as background, downgraded to 256 colours when `mode` asks for it. */
export function backgroundAnsi(color: Color, mode: TerminalColorMode = "truecolor"): string {
	return colorAnsi(color, mode, 48);
}

/**
 * `text` between precomputed colour sequences (e.g. cached theme colours) and the attributes of `options`;
 * colours in `options` are ignored. Each attribute is closed by its own reset, never a full reset, in
 * reverse order of opening.
 */
export function styleTextWithAnsi(
	text: string,
	fgAnsi: string | undefined,
	bgAnsi: string | undefined,
	options: TextAttributes,
): string {
	const open: string[] = [];
	const close: string[] = [];
	const add = (opener: string | false | undefined, closer: string) => {
		if (!opener) return;
		open.push(opener);
		close.unshift(closer);
	};
	add(fgAnsi, "\x1b[39m");
	add(bgAnsi, "\x1b[49m");
	add((options.bold ? "\x1b[1m" : "") + (options.dim ? "\x1b[2m" : ""), "\x1b[22m");
	add(options.italic && "\x1b[3m", "\x1b[23m");
	add(options.underline && "\x1b[4m", "\x1b[24m");
	add(options.inverse && "\x1b[7m", "\x1b[27m");
	add(options.strikethrough && "\x1b[9m", "\x1b[29m");
	return open.join("") + text + close.join("");
}

/** `text` in the style's colours and attributes. */
export function styleText(text: string, style: TextStyle, mode: TerminalColorMode = "truecolor"): string {
	return styleTextWithAnsi(
		text,
		style.fg && foregroundAnsi(style.fg, mode),
		style.bg && backgroundAnsi(style.bg, mode),
		style,
	);
}
