/** Colours: indexed, sRGB and OKLCH, with conversion to terminal SGR sequences. */
import { okhslToOklab } from "./okhsl.js";

export type Color =
	| { kind: "indexed"; index: number }
	| { kind: "rgb"; r: number; g: number; b: number }
	| { kind: "oklch"; l: number; c: number; h: number };

export type ColorMode = "truecolor" | "256color";

export const indexed = (index: number): Color => ({ kind: "indexed", index });
export const rgb = (r: number, g: number, b: number): Color => ({ kind: "rgb", r, g, b });
export const oklch = (l: number, c: number, h: number): Color => ({ kind: "oklch", l, c, h });

const ANSI16: [number, number, number][] = [
	[0, 0, 0],
	[205, 0, 0],
	[0, 205, 0],
	[205, 205, 0],
	[0, 0, 238],
	[205, 0, 205],
	[0, 205, 205],
	[229, 229, 229],
	[127, 127, 127],
	[255, 0, 0],
	[0, 255, 0],
	[255, 255, 0],
	[92, 92, 255],
	[255, 0, 255],
	[0, 255, 255],
	[255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

// ---- OKLab <-> sRGB (Björn Ottosson's published matrices) ----------------------------------

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

function oklabToLinearRgb(L: number, a: number, b: number): [number, number, number] {
	const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
	const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
	const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
	return [
		4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
		-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
		-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
	];
}

function linearRgbToOklab(r: number, g: number, b: number): [number, number, number] {
	const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
	const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
	const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
	return [
		0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
		1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
		0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
	];
}

function oklchToLinear(l: number, c: number, h: number): [number, number, number] {
	const rad = (h * Math.PI) / 180;
	return oklabToLinearRgb(l, c * Math.cos(rad), c * Math.sin(rad));
}

const inGamut = (rgbLin: number[]) => rgbLin.every((v) => v >= -1e-6 && v <= 1 + 1e-6);

/** OKLCH to sRGB, reducing chroma until the colour fits the sRGB gamut. */
function oklchToRgb(l: number, c: number, h: number): { r: number; g: number; b: number } {
	let lin = oklchToLinear(l, c, h);
	if (!inGamut(lin)) {
		let lo = 0;
		let hi = c;
		for (let i = 0; i < 24; i++) {
			const mid = (lo + hi) / 2;
			if (inGamut(oklchToLinear(l, mid, h))) lo = mid;
			else hi = mid;
		}
		lin = oklchToLinear(l, lo, h);
	}
	const to255 = (v: number) => Math.round(Math.max(0, Math.min(1, fromLinear(Math.max(0, v)))) * 255);
	return { r: to255(lin[0]), g: to255(lin[1]), b: to255(lin[2]) };
}

function rgbToOklch(r: number, g: number, b: number): { l: number; c: number; h: number } {
	const [L, A, B] = linearRgbToOklab(toLinear(r / 255), toLinear(g / 255), toLinear(b / 255));
	const c = Math.hypot(A, B);
	const h = ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360;
	return { l: L, c, h };
}

export function colorToRgb(color: Color): { r: number; g: number; b: number } {
	if (color.kind === "rgb") return { r: color.r, g: color.g, b: color.b };
	if (color.kind === "oklch") return oklchToRgb(color.l, color.c, color.h);
	const i = color.index;
	if (i < 16) {
		const [r, g, b] = ANSI16[i]!;
		return { r, g, b };
	}
	if (i < 232) {
		const n = i - 16;
		return { r: CUBE[Math.floor(n / 36)]!, g: CUBE[Math.floor(n / 6) % 6]!, b: CUBE[n % 6]! };
	}
	const gray = 8 + 10 * (i - 232);
	return { r: gray, g: gray, b: gray };
}

/** Parses a number (indexed), `#rgb`, `#rrggbb`, `oklch(L[%] C H)` or `okhsl(H S[%] L[%])`. */
export function parseColor(value: string | number): Color {
	if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 255) return indexed(value);
	if (typeof value === "string") {
		const v = value.trim();
		const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v);
		if (hex) {
			const h = hex[1]!.length === 3 ? [...hex[1]!].map((c) => c + c).join("") : hex[1]!;
			return rgb(
				Number.parseInt(h.slice(0, 2), 16),
				Number.parseInt(h.slice(2, 4), 16),
				Number.parseInt(h.slice(4, 6), 16),
			);
		}
		const ok = /^oklch\(\s*([\d.]+)(%?)\s+([\d.]+)\s+([\d.]+)\s*\)$/i.exec(v);
		if (ok) return oklch(Number(ok[1]) / (ok[2] ? 100 : 1), Number(ok[3]), Number(ok[4]));
		const hsl = /^okhsl\(\s*([\d.]+)\s+([\d.]+)(%?)\s+([\d.]+)(%?)\s*\)$/i.exec(v);
		if (hsl) {
			const h = Number(hsl[1]);
			const s = Math.max(0, Math.min(1, Number(hsl[2]) / (hsl[3] ? 100 : 1)));
			const l = Math.max(0, Math.min(1, Number(hsl[4]) / (hsl[5] ? 100 : 1)));
			const [L, A, B] = okhslToOklab(h, s, l, (L2, a, b) => inGamut(oklabToLinearRgb(L2, a, b)));
			const to255 = (v: number) => Math.round(Math.max(0, Math.min(1, fromLinear(Math.max(0, v)))) * 255);
			const lin = oklabToLinearRgb(L, A, B);
			return rgb(to255(lin[0]), to255(lin[1]), to255(lin[2]));
		}
	}
	throw new Error(`Invalid color value: ${value}`);
}

/** Mixes `a` toward `b` by `amount` (0..1) in OKLCH (default) or sRGB. */
export function mixColors(a: Color, b: Color, amount: number, space: "oklch" | "srgb" = "oklch"): Color {
	const ra = colorToRgb(a);
	const rb = colorToRgb(b);
	const t = Math.max(0, Math.min(1, amount));
	if (space === "srgb")
		return rgb(
			Math.round(ra.r + (rb.r - ra.r) * t),
			Math.round(ra.g + (rb.g - ra.g) * t),
			Math.round(ra.b + (rb.b - ra.b) * t),
		);
	const ca = rgbToOklch(ra.r, ra.g, ra.b);
	const cb = rgbToOklch(rb.r, rb.g, rb.b);
	let dh = cb.h - ca.h;
	if (dh > 180) dh -= 360;
	if (dh < -180) dh += 360;
	return oklch(ca.l + (cb.l - ca.l) * t, ca.c + (cb.c - ca.c) * t, (ca.h + dh * t + 360) % 360);
}

/** The closest xterm 256-colour index (cube or gray ramp). */
export function nearestAnsi256(r: number, g: number, b: number): number {
	const level = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
	const [lr, lg, lb] = [level(r), level(g), level(b)];
	const cubeIndex = 16 + 36 * lr + 6 * lg + lb;
	const cube = [CUBE[lr]!, CUBE[lg]!, CUBE[lb]!];
	const avg = Math.round((r + g + b) / 3);
	const grayIndex = avg > 238 ? 23 : Math.max(0, Math.round((avg - 8) / 10));
	const gray = 8 + 10 * grayIndex;
	const dist = (x: number[]) => (x[0]! - r) ** 2 + (x[1]! - g) ** 2 + (x[2]! - b) ** 2;
	return dist([gray, gray, gray]) < dist(cube) ? 232 + grayIndex : cubeIndex;
}

function sgrColor(color: Color, base: 38 | 48, mode: ColorMode): string {
	if (color.kind === "indexed") return `\x1b[${base};5;${color.index}m`;
	const { r, g, b } = colorToRgb(color);
	if (mode === "256color") return `\x1b[${base};5;${nearestAnsi256(r, g, b)}m`;
	return `\x1b[${base};2;${r};${g};${b}m`;
}

export function foregroundAnsi(color: Color, mode: ColorMode = "truecolor"): string {
	return sgrColor(color, 38, mode);
}

export function backgroundAnsi(color: Color, mode: ColorMode = "truecolor"): string {
	return sgrColor(color, 48, mode);
}

export interface TextStyle {
	fg?: Color;
	bg?: Color;
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	inverse?: boolean;
	strikethrough?: boolean;
}

/** Precomputed opener and closer for a style (hot paths call this once). */
export function styleAnsi(style: TextStyle, mode: ColorMode = "truecolor"): { open: string; close: string } {
	let open = "";
	const closers: string[] = [];
	if (style.fg) {
		open += foregroundAnsi(style.fg, mode);
		closers.push("\x1b[39m");
	}
	if (style.bg) {
		open += backgroundAnsi(style.bg, mode);
		closers.push("\x1b[49m");
	}
	if (style.bold || style.dim) {
		open += style.bold ? "\x1b[1m" : "";
		open += style.dim ? "\x1b[2m" : "";
		closers.push("\x1b[22m");
	}
	if (style.italic) {
		open += "\x1b[3m";
		closers.push("\x1b[23m");
	}
	if (style.underline) {
		open += "\x1b[4m";
		closers.push("\x1b[24m");
	}
	if (style.inverse) {
		open += "\x1b[7m";
		closers.push("\x1b[27m");
	}
	if (style.strikethrough) {
		open += "\x1b[9m";
		closers.push("\x1b[29m");
	}
	return { open, close: closers.reverse().join("") };
}

export function styleTextWithAnsi(text: string, ansi: { open: string; close: string }): string {
	return ansi.open + text + ansi.close;
}

/** Styles text with specific closers in reverse order (never a full reset). */
export function styleText(text: string, style: TextStyle, mode: ColorMode = "truecolor"): string {
	return styleTextWithAnsi(text, styleAnsi(style, mode));
}
