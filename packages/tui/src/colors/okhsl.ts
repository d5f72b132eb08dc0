/**
 * OKHSL → OKLab lightness/chroma (Björn Ottosson's construction). The gamut cusp and the maximum
 * chroma are found numerically against the sRGB gamut instead of with fitted polynomials, so
 * s = 0 and s = 1 are exact (gray and the most saturated in-gamut colour).
 */

const K1 = 0.206;
const K2 = 0.03;
const K3 = (1 + K1) / (1 + K2);

/** Inverse of the OKHSL "toe" that maps perceived lightness to OKLab L. */
export function toeInverse(x: number): number {
	return (x * x + K1 * x) / (K3 * (x + K2));
}

type InGamut = (L: number, a: number, b: number) => boolean;

/** Largest chroma along (a_, b_) at lightness L that stays inside the gamut. */
function maxChroma(L: number, a_: number, b_: number, inGamut: InGamut): number {
	let lo = 0;
	let hi = 0.5;
	for (let i = 0; i < 30; i++) {
		const mid = (lo + hi) / 2;
		if (inGamut(L, mid * a_, mid * b_)) lo = mid;
		else hi = mid;
	}
	return lo;
}

/** The gamut cusp (lightness with the highest reachable chroma) for a hue. */
function findCusp(a_: number, b_: number, inGamut: InGamut): { L: number; C: number } {
	let best = { L: 0.5, C: 0 };
	for (let i = 1; i < 100; i++) {
		const L = i / 100;
		const C = maxChroma(L, a_, b_, inGamut);
		if (C > best.C) best = { L, C };
	}
	// Refine around the coarse maximum.
	for (let step = 0.005; step > 1e-5; step /= 2) {
		for (const L of [best.L - step, best.L + step]) {
			if (L <= 0 || L >= 1) continue;
			const C = maxChroma(L, a_, b_, inGamut);
			if (C > best.C) best = { L, C };
		}
	}
	return best;
}

/** Ottosson's fitted saturation/toe midpoint for a hue direction. */
function stMid(a_: number, b_: number): { S: number; T: number } {
	const S =
		0.11516993 +
		1 /
			(7.4477897 +
				4.1590124 * b_ +
				a_ *
					(-2.19557347 +
						1.75198401 * b_ +
						a_ * (-2.13704948 - 10.02301043 * b_ + a_ * (-4.24894561 + 5.38770819 * b_ + 4.69891013 * a_))));
	const T =
		0.11239642 +
		1 /
			(1.6132032 -
				0.68124379 * b_ +
				a_ *
					(0.40370612 +
						0.90148123 * b_ +
						a_ * (-0.27087943 + 0.6122399 * b_ + a_ * (0.00299215 - 0.45399568 * b_ - 0.14661872 * a_))));
	return { S, T };
}

/** OKLab (L, a, b) for OKHSL hue (degrees), saturation and lightness (0..1). */
export function okhslToOklab(h: number, s: number, l: number, inGamut: InGamut): [number, number, number] {
	if (l >= 1) return [1, 0, 0];
	if (l <= 0) return [0, 0, 0];
	const rad = (h * Math.PI) / 180;
	const a_ = Math.cos(rad);
	const b_ = Math.sin(rad);
	const L = toeInverse(l);
	const cusp = findCusp(a_, b_, inGamut);
	const sMax = cusp.C / cusp.L;
	const tMax = cusp.C / (1 - cusp.L);
	const cMax = maxChroma(L, a_, b_, inGamut);
	const k = cMax / Math.min(L * sMax, (1 - L) * tMax);
	const mid = stMid(a_, b_);
	const ca = L * mid.S;
	const cb = (1 - L) * mid.T;
	const cMid = 0.9 * k * Math.sqrt(Math.sqrt(1 / (1 / ca ** 4 + 1 / cb ** 4)));
	const c0 = Math.sqrt(1 / (1 / (L * 0.4) ** 2 + 1 / ((1 - L) * 0.8) ** 2));
	const MID = 0.8;
	let C: number;
	if (s < MID) {
		const t = s / MID;
		const k1 = MID * c0;
		const k2 = 1 - k1 / cMid;
		C = (t * k1) / (1 - k2 * t);
	} else {
		const t = (s - MID) / (1 - MID);
		const k1 = ((1 - MID) * cMid * cMid) / (MID * MID * c0);
		const k2 = 1 - k1 / (cMax - cMid);
		C = cMid + (t * k1) / (1 - k2 * t);
	}
	return [L, C * a_, C * b_];
}
