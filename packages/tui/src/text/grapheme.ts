import { eastAsianWidth } from "get-east-asian-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

const isPrintableAscii = (code: number) => code >= 0x20 && code <= 0x7e;

/** Printable ASCII between printable ASCII (or the ends): no Unicode rule joins it to a neighbour. */
function isLoneAscii(text: string, i: number): boolean {
	return (
		isPrintableAscii(text.charCodeAt(i)) &&
		(i === 0 || isPrintableAscii(text.charCodeAt(i - 1))) &&
		(i === text.length - 1 || isPrintableAscii(text.charCodeAt(i + 1)))
	);
}

/**
 * The grapheme clusters of `text`. Segmenting is slow, so only the stretches around other
 * characters go through the segmenter; the stretches are bounded by lone ASCII characters, which
 * are cluster boundaries on both sides.
 */
export function graphemes(text: string): string[] {
	const out: string[] = [];
	let i = 0;
	while (i < text.length) {
		if (isLoneAscii(text, i)) {
			out.push(text[i]!);
			i++;
			continue;
		}
		let end = i + 1;
		while (end < text.length && !isLoneAscii(text, end)) end++;
		for (const { segment } of segmenter.segment(text.slice(i, end))) out.push(segment);
		i = end;
	}
	return out;
}

const EXTRA_SPACING_MARKS = new Set([
	0x065f, 0x0f7f, 0x102b, 0x102c, 0x1031, 0x1033, 0x1034, 0x1035, 0x1038, 0x103a, 0x103b, 0x103c, 0x103d, 0x103e,
]);
const NOT_SPACING = new Set([0x1734, 0x302e, 0x302f]);
const SPACING_MARK = /^\p{Mc}$/u;
const ZERO_WIDTH = /^[\p{Default_Ignorable_Code_Point}\p{Cc}\p{M}\p{Cs}]+$/u;
const MARK = /^\p{M}$/u;
const NON_PRINTING = /^[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{M}\p{Cs}]$/u;
// Built at runtime: the `v` flag is newer than the compile target's lib.
const RGI_EMOJI = new RegExp("^\\p{RGI_Emoji}$", String("v"));

/** A code point terminals draw as a separate column even though Unicode calls it a mark. */
function isTerminalSpacingMark(cp: number): boolean {
	if (EXTRA_SPACING_MARKS.has(cp)) return true;
	if (NOT_SPACING.has(cp)) return false;
	return SPACING_MARK.test(String.fromCodePoint(cp));
}

function mayBeEmoji(cluster: string, first: number): boolean {
	return (
		(first >= 0x1f000 && first <= 0x1fbff) ||
		(first >= 0x2300 && first <= 0x23ff) ||
		(first >= 0x2600 && first <= 0x27bf) ||
		(first >= 0x2b50 && first <= 0x2b55) ||
		cluster.includes("\ufe0f") ||
		cluster.length > 2
	);
}

function eaw(cp: number): number {
	return eastAsianWidth(cp, { ambiguousAsWide: false }) >= 2 ? 2 : 1;
}

/** Columns a terminal uses for one grapheme cluster (no escape sequences inside). */
export function graphemeWidth(cluster: string): number {
	if (cluster.length === 1) {
		const c = cluster.charCodeAt(0);
		if (c >= 0x20 && c <= 0x7e) return 1;
		if (c === 0x09) return 3;
	}
	const cps: number[] = [];
	for (const ch of cluster) cps.push(ch.codePointAt(0)!);
	if (cps.length === 0) return 0;
	if (cps.every(isTerminalSpacingMark)) return cps.length;
	if (ZERO_WIDTH.test(cluster)) return 0;
	if (mayBeEmoji(cluster, cps[0]!) && RGI_EMOJI.test(cluster)) return 2;
	let index = 0;
	while (index < cps.length && NON_PRINTING.test(String.fromCodePoint(cps[index]!))) index++;
	if (index === cps.length) return 0;
	const base = cps[index]!;
	// A regional indicator draws two columns, whatever follows it and even alone (a flag still streaming in).
	if (base >= 0x1f1e6 && base <= 0x1f1ff) return 2;
	let width = eaw(base);
	// Terminals give a column to spacing marks, to a visible character drawn after a mark (Indic
	// conjuncts), to half- and full-width forms and to the Thai and Lao AM vowels.
	let followsMark = false;
	for (const cp of cps.slice(index + 1)) {
		const char = String.fromCodePoint(cp);
		if (isTerminalSpacingMark(cp)) {
			width += 1;
			followsMark = false;
		} else if (MARK.test(char)) {
			followsMark = true;
		} else if (!NON_PRINTING.test(char)) {
			if (followsMark || (cp >= 0xff00 && cp <= 0xffef)) width += eaw(cp);
			else if (cp === 0x0e33 || cp === 0x0eb3) width += 1;
			followsMark = false;
		}
	}
	return width;
}

/** Scripts written without spaces, where a line may break between any two characters. */
const CJK_BREAK =
	/[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;

export function isCjkGrapheme(g: string): boolean {
	return CJK_BREAK.test(g);
}
