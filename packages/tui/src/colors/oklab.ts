/**
 * Oklab and OKHSL conversions (Björn Ottosson's colour spaces, https://bottosson.github.io/posts/oklab/
 * and /posts/colorpicker/). OKHSL saturation is relative to the sRGB gamut at each hue and lightness;
 * the gamut boundary comes from Ottosson's fitted maximum saturation refined by one Halley step.
 * The matrices are the published double-precision ones, so results agree with other implementations.
 */
import type { RgbColor } from "../tui/terminal-colors.js";

export type Vector3 = [number, number, number];

const LINEAR_SRGB_TO_LMS: readonly Vector3[] = [
	[0.4122214694707629, 0.5363325372617349, 0.0514459932675022],
	[0.2119034958178251, 0.6806995506452344, 0.1073969535369405],
	[0.0883024591900564, 0.2817188391361215, 0.6299787016738222],
];
const LMS_TO_OKLAB: readonly Vector3[] = [
	[0.210454268309314, 0.793617774702305, -0.0040720430116193],
	[1.9779985324311684, -2.42859224204858, 0.450593709617411],
	[0.0259040424655478, 0.7827717124575296, -0.8086757549230774],
];
const OKLAB_TO_LMS: readonly Vector3[] = [
	[1, 0.3963377773761749, 0.2158037573099136],
	[1, -0.1055613458156586, -0.0638541728258133],
	[1, -0.0894841775298119, -1.2914855480194092],
];
const LMS_TO_LINEAR_SRGB: readonly Vector3[] = [
	[4.0767416360759583, -3.3077115392580629, 0.2309699031821043],
	[-1.2684379732850315, 2.6097573492876882, -0.341319376002657],
	[-0.0041960761386756, -0.7034186179359362, 1.7076146940746117],
];

/**
 * Ottosson's fit of the maximum saturation per hue, one per sRGB channel: the half-plane of (a, b)
 * where that channel leaves the gamut first, and the polynomial coefficients k0..k4.
 */
const MAX_SATURATION_FIT: readonly { plane: [number, number]; k: readonly number[] }[] = [
	{ plane: [-1.8817031, -0.80936501], k: [1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245] },
	{ plane: [1.8144408, -1.19445267], k: [0.73956515, -0.45954404, 0.08285427, 0.12541073, -0.14503204] },
	{ plane: [0.13110758, 1.81333971], k: [1.35733652, -0.00915799, -1.1513021, -0.50559606, 0.00692167] },
];

// OKHSL's lightness "toe" keeps dark tones apart, like CIELab's L*.
const TOE_K1 = 0.206;
const TOE_K2 = 0.03;
const TOE_K3 = (1 + TOE_K1) / (1 + TOE_K2);

const dot = (row: readonly number[], v: readonly number[]) => row[0]! * v[0]! + row[1]! * v[1]! + row[2]! * v[2]!;
const apply = (matrix: readonly Vector3[], v: Vector3): Vector3 => [
	dot(matrix[0]!, v),
	dot(matrix[1]!, v),
	dot(matrix[2]!, v),
];

/** Oklab lightness to OKHSL lightness. */
export const oklabToOkhslLightness = (x: number): number =>
	0.5 * (TOE_K3 * x - TOE_K1 + Math.sqrt((TOE_K3 * x - TOE_K1) ** 2 + 4 * TOE_K2 * TOE_K3 * x));

const okhslToOklabLightness = (x: number): number => (x * x + TOE_K1 * x) / (TOE_K3 * (x + TOE_K2));

const encodeSrgb = (v: number) => (v > 0.0031308 ? 1.055 * v ** (1 / 2.4) - 0.055 : 12.92 * v);
const decodeSrgb = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

export function oklabToLinearSrgb(lab: Vector3): Vector3 {
	const [l, m, s] = apply(OKLAB_TO_LMS, lab);
	return apply(LMS_TO_LINEAR_SRGB, [l ** 3, m ** 3, s ** 3]);
}

/** sRGB channels (0–255) to Oklab [L, a, b]. */
export function rgbToOklab({ r, g, b }: RgbColor): Vector3 {
	const [l, m, s] = apply(LINEAR_SRGB_TO_LMS, [decodeSrgb(r / 255), decodeSrgb(g / 255), decodeSrgb(b / 255)]);
	return apply(LMS_TO_OKLAB, [Math.cbrt(l), Math.cbrt(m), Math.cbrt(s)]);
}

/** Linear sRGB to rounded 0–255 channels; out-of-gamut channels are clipped. */
export function linearSrgbToRgb(linear: Vector3): RgbColor {
	const channel = (v: number) => Math.round(Math.min(1, Math.max(0, encodeSrgb(v))) * 255);
	return { r: channel(linear[0]), g: channel(linear[1]), b: channel(linear[2]) };
}

/** How each cube-root LMS component changes per unit of chroma along hue direction (a, b). */
function lmsPerChroma(a: number, b: number): Vector3 {
	return [
		OKLAB_TO_LMS[0]![1] * a + OKLAB_TO_LMS[0]![2] * b,
		OKLAB_TO_LMS[1]![1] * a + OKLAB_TO_LMS[1]![2] * b,
		OKLAB_TO_LMS[2]![1] * a + OKLAB_TO_LMS[2]![2] * b,
	];
}

/**
 * For `weights · lms³` along a line where each cube-root LMS component is `base + t * slope`: the value
 * and its first and second derivatives in t, the inputs of a Halley step.
 */
function cubicTerms(weights: Vector3, base: Vector3, slope: Vector3): [f: number, f1: number, f2: number] {
	return [
		dot(weights, [base[0] ** 3, base[1] ** 3, base[2] ** 3]),
		dot(weights, [3 * slope[0] * base[0] ** 2, 3 * slope[1] * base[1] ** 2, 3 * slope[2] * base[2] ** 2]),
		dot(weights, [6 * slope[0] ** 2 * base[0], 6 * slope[1] ** 2 * base[1], 6 * slope[2] ** 2 * base[2]]),
	];
}

/** The largest saturation (C/L) of hue (a, b) inside sRGB: the fitted estimate plus one Halley step. */
function maxSaturation(a: number, b: number): number {
	const last = MAX_SATURATION_FIT.length - 1;
	const channel = MAX_SATURATION_FIT.findIndex(
		({ plane }, index) => index === last || plane[0] * a + plane[1] * b > 1,
	);
	const [k0, k1, k2, k3, k4] = MAX_SATURATION_FIT[channel]!.k as [number, number, number, number, number];
	const estimate = k0 + k1 * a + k2 * b + k3 * a * a + k4 * a * b;
	const slope = lmsPerChroma(a, b);
	const base: Vector3 = [1 + estimate * slope[0], 1 + estimate * slope[1], 1 + estimate * slope[2]];
	const [f, f1, f2] = cubicTerms(LMS_TO_LINEAR_SRGB[channel]!, base, slope);
	return estimate - (f * f1) / (f1 * f1 - 0.5 * f * f2);
}

/** The most saturated in-gamut colour of hue (a, b): its Oklab lightness and chroma. */
function gamutCusp(a: number, b: number): [lightness: number, chroma: number] {
	const saturation = maxSaturation(a, b);
	const brightest = oklabToLinearSrgb([1, saturation * a, saturation * b]);
	const lightness = Math.cbrt(1 / Math.max(...brightest));
	return [lightness, lightness * saturation];
}

/** The chroma where the line of constant `lightness` and hue (a, b) leaves the sRGB gamut. */
function gamutChroma(a: number, b: number, lightness: number, [cuspL, cuspC]: [number, number]): number {
	if (lightness <= cuspL) return (cuspC * lightness) / cuspL;
	// Above the cusp the triangle's upper edge overshoots a little; one Halley step per channel corrects it.
	const t = (cuspC * (lightness - 1)) / (cuspL - 1);
	const slope = lmsPerChroma(a, b);
	const base: Vector3 = [lightness + t * slope[0], lightness + t * slope[1], lightness + t * slope[2]];
	const corrections = LMS_TO_LINEAR_SRGB.map((weights) => {
		const [value, f1, f2] = cubicTerms(weights, base, slope);
		const f = value - 1;
		const u = f1 / (f1 * f1 - 0.5 * f * f2);
		return u >= 0 ? -f * u : Number.MAX_VALUE;
	});
	return t + Math.min(...corrections);
}

/** OKHSL's reference chromas at Oklab lightness L and hue (a, b): at s = 0.8 (mid) and s = 1 (max). */
function chromaStops(L: number, a: number, b: number): { c0: number; cMid: number; cMax: number } {
	const cusp = gamutCusp(a, b);
	const cMax = gamutChroma(a, b, L, cusp);
	const k = cMax / Math.min(L * (cusp[1] / cusp[0]), (1 - L) * (cusp[1] / (1 - cusp[0])));
	// Ottosson's fitted saturation and toe of a smooth triangle approximating the gamut per hue.
	const midS =
		0.11516993 +
		1 /
			(7.4477897 +
				4.1590124 * b +
				a *
					(-2.19557347 +
						1.75198401 * b +
						a * (-2.13704948 - 10.02301043 * b + a * (-4.24894561 + 5.38770819 * b + 4.69891013 * a))));
	const midT =
		0.11239642 +
		1 /
			(1.6132032 -
				0.68124379 * b +
				a *
					(0.40370612 +
						0.90148123 * b +
						a * (-0.27087943 + 0.6122399 * b + a * (0.00299215 - 0.45399568 * b - 0.14661872 * a))));
	const cMid = 0.9 * k * Math.sqrt(Math.sqrt(1 / (1 / (L * midS) ** 4 + 1 / ((1 - L) * midT) ** 4)));
	const c0 = Math.sqrt(1 / (1 / (L * 0.4) ** 2 + 1 / ((1 - L) * 0.8) ** 2));
	return { c0, cMid, cMax };
}

const MID_SATURATION = 0.8;

/** OKHSL (hue in degrees, saturation and lightness 0–1) to rounded sRGB channels, clipped to the gamut. */
export function okhslToRgb(hue: number, saturation: number, lightness: number): RgbColor {
	const L = okhslToOklabLightness(lightness);
	if (!(L > 0 && L < 1 && saturation > 0)) return linearSrgbToRgb(oklabToLinearSrgb([L, 0, 0]));
	const angle = (2 * Math.PI * (((hue % 360) + 360) % 360)) / 360;
	const a = Math.cos(angle);
	const b = Math.sin(angle);
	const { c0, cMid, cMax } = chromaStops(L, a, b);
	// Chroma rises from 0 through cMid at s = 0.8 to cMax at s = 1, each part a rational curve.
	let chroma: number;
	if (saturation < MID_SATURATION) {
		const t = saturation / MID_SATURATION;
		const k1 = MID_SATURATION * c0;
		chroma = (t * k1) / (1 - (1 - k1 / cMid) * t);
	} else {
		const t = (saturation - MID_SATURATION) / (1 - MID_SATURATION);
		const k1 = ((1 - MID_SATURATION) * cMid ** 2) / (MID_SATURATION ** 2 * c0);
		chroma = cMid + (t * k1) / (1 - (1 - k1 / (cMax - cMid)) * t);
	}
	return linearSrgbToRgb(oklabToLinearSrgb([L, chroma * a, chroma * b]));
}

/** sRGB channels (0–255) to OKHSL: hue in degrees (0 for grays), saturation and lightness 0–1. */
export function rgbToOkhsl(rgb: RgbColor): { h: number; s: number; l: number } {
	const [L, a, b] = rgbToOklab(rgb);
	const chroma = Math.hypot(a, b);
	const l = oklabToOkhslLightness(L);
	if (chroma < 1e-9 || l <= 0 || l >= 1) return { h: 0, s: 0, l };
	const h = ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
	const { c0, cMid, cMax } = chromaStops(L, a / chroma, b / chroma);
	let s: number;
	if (chroma < cMid) {
		const k1 = MID_SATURATION * c0;
		s = MID_SATURATION * (chroma / (k1 + (1 - k1 / cMid) * chroma));
	} else {
		const k1 = ((1 - MID_SATURATION) * cMid ** 2) / (MID_SATURATION ** 2 * c0);
		const over = chroma - cMid;
		s = MID_SATURATION + (1 - MID_SATURATION) * (over / (k1 + (1 - k1 / (cMax - cMid)) * over));
	}
	return { h, s: Math.min(1, Math.max(0, s)), l };
}
