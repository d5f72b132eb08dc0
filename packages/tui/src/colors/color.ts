/** Colours: indexed, sRGB, OKLCH and OKHSL values, their conversions and mixing (docs/tui.md "Colours"). */
import type { RgbColor } from "../tui/terminal-colors.js";
import { linearSrgbToRgb, okhslToRgb, oklabToLinearSrgb, rgbToOkhsl, rgbToOklab, type Vector3 } from "./oklab.js";

/** A colour of the terminal's 256-colour palette, by index. */
export interface IndexedColor {
	readonly kind: "indexed";
	readonly index: number;
}
/** A 24-bit sRGB colour. */
export interface RgbColorValue {
	readonly kind: "rgb";
	readonly r: number;
	readonly g: number;
	readonly b: number;
}
/** A colour given in OKLCH, converted to sRGB when drawn. */
export interface OklchColorValue {
	readonly kind: "oklch";
	readonly l: number;
	readonly c: number;
	readonly h: number;
}
/** A concrete colour; every colour converts to sRGB, so colour math never fails. */
export type Color = IndexedColor | RgbColorValue | OklchColorValue;
/** The colour space colours are mixed in: perceptual OKLCH or plain sRGB. */
export type ColorMixSpace = "oklch" | "srgb";
/** OKLCH channels: lightness 0–1, chroma and hue in degrees. */
export interface OklchChannels {
	l: number;
	c: number;
	h: number;
}
/** Hue in degrees, saturation and lightness 0–1; saturation is relative to the sRGB gamut. */
export interface OkhslChannels {
	h: number;
	s: number;
	l: number;
}

function requireFinite(value: number, name: string): void {
	if (!Number.isFinite(value)) throw new Error(`${name} must be finite`);
}

function requireUnitRange(value: number, name: string): void {
	if (value < 0 || value > 1) throw new Error(`${name} must be between 0 and 1: ${value}`);
}

/** A colour from the 256-colour palette; throws for an index outside 0–255. */
export function indexedColor(index: number): IndexedColor {
	if (!Number.isInteger(index) || index < 0 || index > 255) {
		throw new Error(`ANSI color index must be an integer from 0 to 255: ${index}`);
	}
	return Object.freeze({ kind: "indexed", index });
}

/** A 24-bit colour; throws unless each channel is an integer 0–255. */
export function rgbColor(r: number, g: number, b: number): RgbColorValue {
	for (const [name, value] of [
		["r", r],
		["g", g],
		["b", b],
	] as const) {
		requireFinite(value, name);
		if (value < 0 || value > 255) throw new Error(`${name} must be between 0 and 255: ${value}`);
	}
	return Object.freeze({ kind: "rgb", r, g, b });
}

/** Lightness 0–1, chroma ≥ 0, hue in degrees (normalised to 0–360). */
export function oklchColor(l: number, c: number, h: number): OklchColorValue {
	requireFinite(l, "l");
	requireFinite(c, "c");
	requireFinite(h, "h");
	requireUnitRange(l, "l");
	if (c < 0) throw new Error(`c must not be negative: ${c}`);
	return Object.freeze({ kind: "oklch", l, c, h: ((h % 360) + 360) % 360 });
}

/** An OKHSL colour as sRGB: equal saturation looks equally colourful across hues and lightness. */
export function okhslColor(h: number, s: number, l: number): RgbColorValue {
	requireFinite(h, "h");
	requireFinite(s, "s");
	requireFinite(l, "l");
	requireUnitRange(s, "s");
	requireUnitRange(l, "l");
	const { r, g, b } = okhslToRgb(h, s, l);
	return rgbColor(r, g, b);
}

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?`;
const OKLCH_SYNTAX = new RegExp(String.raw`^oklch\(\s*(${NUMBER})(%)?\s+(${NUMBER})\s+(${NUMBER})(?:deg)?\s*\)$`, "i");
const OKHSL_SYNTAX = new RegExp(
	String.raw`^okhsl\(\s*(${NUMBER})(?:deg)?\s+(${NUMBER})(%)?\s+(${NUMBER})(%)?\s*\)$`,
	"i",
);

/** A number (indexed), `#rgb`, `#rrggbb`, `oklch(L[%] C H[deg])` or `okhsl(H[deg] S[%] L[%])`. */
export function parseColor(value: string | number): Color {
	if (typeof value === "number") return indexedColor(value);
	const hex = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(value);
	if (hex) {
		const digits = hex[1]!.length === 3 ? [...hex[1]!].map((digit) => digit + digit).join("") : hex[1]!;
		const channel = (at: number) => Number.parseInt(digits.slice(at, at + 2), 16);
		return rgbColor(channel(0), channel(2), channel(4));
	}
	const lch = OKLCH_SYNTAX.exec(value);
	if (lch) {
		const lightness = Number.parseFloat(lch[1]!) / (lch[2] ? 100 : 1);
		return oklchColor(lightness, Number.parseFloat(lch[3]!), Number.parseFloat(lch[4]!));
	}
	const hsl = OKHSL_SYNTAX.exec(value);
	if (hsl) {
		const saturation = Number.parseFloat(hsl[2]!) / (hsl[3] ? 100 : 1);
		const lightness = Number.parseFloat(hsl[4]!) / (hsl[5] ? 100 : 1);
		return okhslColor(Number.parseFloat(hsl[1]!), saturation, lightness);
	}
	throw new Error(`Invalid color value: ${value}`);
}

/** The 16 basic colours as pi-tui renders them to sRGB. */
const BASIC_COLORS: readonly RgbColor[] = [
	[0, 0, 0],
	[128, 0, 0],
	[0, 128, 0],
	[128, 128, 0],
	[0, 0, 128],
	[128, 0, 128],
	[0, 128, 128],
	[192, 192, 192],
	[128, 128, 128],
	[255, 0, 0],
	[0, 255, 0],
	[255, 255, 0],
	[0, 0, 255],
	[255, 0, 255],
	[0, 255, 255],
	[255, 255, 255],
].map(([r, g, b]) => ({ r: r!, g: g!, b: b! }));
/** The channel levels of the xterm 6×6×6 colour cube (indices 16–231). */
export const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

function indexedToRgb(index: number): RgbColor {
	if (index < 16) return { ...BASIC_COLORS[index]! };
	if (index < 232) {
		const cube = index - 16;
		return {
			r: CUBE_LEVELS[Math.floor(cube / 36)]!,
			g: CUBE_LEVELS[Math.floor((cube % 36) / 6)]!,
			b: CUBE_LEVELS[cube % 6]!,
		};
	}
	const gray = 8 + (index - 232) * 10;
	return { r: gray, g: gray, b: gray };
}

const inSrgbGamut = (linear: Vector3) => linear.every((channel) => channel >= -1e-7 && channel <= 1 + 1e-7);

/** OKLCH to sRGB keeping lightness and hue: chroma is reduced (bisection) until the colour fits. */
function oklchToRgb({ l, c, h }: OklchChannels): RgbColor {
	const radians = (h * Math.PI) / 180;
	const atChroma = (chroma: number) => oklabToLinearSrgb([l, chroma * Math.cos(radians), chroma * Math.sin(radians)]);
	const direct = atChroma(c);
	if (inSrgbGamut(direct)) return linearSrgbToRgb(direct);
	// Gray always fits, so it is the answer when no bisection step does (e.g. a chromatic white).
	let fitted = atChroma(0);
	let low = 0;
	let high = c;
	for (let step = 0; step < 20; step++) {
		const chroma = (low + high) / 2;
		const candidate = atChroma(chroma);
		if (inSrgbGamut(candidate)) {
			low = chroma;
			fitted = candidate;
		} else {
			high = chroma;
		}
	}
	return linearSrgbToRgb(fitted);
}

/** A colour as sRGB channels 0–255; indexed colours use the xterm palette. */
export function colorToRgb(color: Color): RgbColor {
	if (color.kind === "indexed") return indexedToRgb(color.index);
	if (color.kind === "rgb") return { r: color.r, g: color.g, b: color.b };
	return oklchToRgb(color);
}

/** A colour's OKLCH channels (lightness, chroma, hue in degrees). */
export function colorToOklch(color: Color): OklchChannels {
	if (color.kind === "oklch") return { l: color.l, c: color.c, h: color.h };
	const [l, a, b] = rgbToOklab(colorToRgb(color));
	return { l, c: Math.hypot(a, b), h: ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360 };
}

/** A colour's OKHSL channels (hue, saturation, lightness), for adjusting lightness or saturation perceptually. */
export function colorToOkhsl(color: Color): OkhslChannels {
	return rgbToOkhsl(colorToRgb(color));
}

/** `#rrggbb`, channels rounded. */
export function colorToHex(color: Color): string {
	const { r, g, b } = colorToRgb(color);
	const hex = (value: number) => Math.round(value).toString(16).padStart(2, "0");
	return `#${hex(r)}${hex(g)}${hex(b)}`;
}

/** `first` moved towards `second` by `amount` (0–1), in OKLCH (shortest hue path) or sRGB. */
export function mixColors(first: Color, second: Color, amount: number, space: ColorMixSpace = "oklch"): Color {
	requireFinite(amount, "amount");
	requireUnitRange(amount, "amount");
	if (space === "srgb") {
		const a = colorToRgb(first);
		const b = colorToRgb(second);
		return rgbColor(a.r + (b.r - a.r) * amount, a.g + (b.g - a.g) * amount, a.b + (b.b - a.b) * amount);
	}
	const a = colorToOklch(first);
	const b = colorToOklch(second);
	// A gray has no hue of its own: it takes the other colour's, so the mix does not swing through red.
	const firstHue = a.c < 1e-7 ? b.h : a.h;
	const secondHue = b.c < 1e-7 ? firstHue : b.h;
	const hueDelta = ((secondHue - firstHue + 540) % 360) - 180;
	return oklchColor(a.l + (b.l - a.l) * amount, a.c + (b.c - a.c) * amount, firstHue + hueDelta * amount);
}
