import { graphemes } from "../../text/grapheme.js";

/** UTF-16 length of the grapheme ending at `col` (0 at the start). */
export function graphemeLengthBefore(text: string, col: number): number {
	if (col <= 0) return 0;
	const parts = graphemes(text.slice(0, col));
	return parts.length > 0 ? parts[parts.length - 1]!.length : 0;
}

/** UTF-16 length of the grapheme starting at `col` (0 at the end). */
export function graphemeLengthAfter(text: string, col: number): number {
	if (col >= text.length) return 0;
	return graphemes(text.slice(col))[0]?.length ?? 0;
}

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

interface Piece {
	start: number;
	end: number;
	kind: "space" | "word" | "punct";
}

/** Word-segmentation pieces; ASCII punctuation inside a word splits it. */
function pieces(text: string): Piece[] {
	const out: Piece[] = [];
	for (const seg of wordSegmenter.segment(text)) {
		let runStart = seg.index;
		let runKind: Piece["kind"] | undefined;
		let i = seg.index;
		for (const ch of seg.segment) {
			const kind: Piece["kind"] = /\s/.test(ch) ? "space" : PUNCTUATION.test(ch) ? "punct" : "word";
			if (runKind !== undefined && kind !== runKind) {
				out.push({ start: runStart, end: i, kind: runKind });
				runStart = i;
			}
			runKind = kind;
			i += ch.length;
		}
		if (runKind !== undefined) out.push({ start: runStart, end: i, kind: runKind });
	}
	// Merge adjacent pieces of the same kind (segmenter splits punctuation runs per character).
	const merged: Piece[] = [];
	for (const p of out) {
		const last = merged[merged.length - 1];
		if (last && last.kind === p.kind && last.end === p.start && p.kind !== "word") last.end = p.end;
		else merged.push({ ...p });
	}
	return merged;
}

/** Column after moving one word left: skip whitespace, then one word or one punctuation run. */
export function wordBoundaryLeft(text: string, col: number): number {
	const ps = pieces(text.slice(0, col));
	let i = ps.length - 1;
	while (i >= 0 && ps[i]!.kind === "space") i--;
	if (i < 0) return 0;
	return ps[i]!.start;
}

/** Column after moving one word right (symmetric to `wordBoundaryLeft`). */
export function wordBoundaryRight(text: string, col: number): number {
	const ps = pieces(text.slice(col));
	let i = 0;
	while (i < ps.length && ps[i]!.kind === "space") i++;
	if (i >= ps.length) return text.length;
	return col + ps[i]!.end;
}
