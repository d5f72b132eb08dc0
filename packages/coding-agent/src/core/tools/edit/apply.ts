import type { MatchResult } from "./match.js";

/** A replacement of `[start, end)` in the LF-normalized content. */
export interface LfReplacement {
	start: number;
	end: number;
	text: string;
}

export interface AppliedEdits {
	/** The new content, LF-normalized. */
	newLf: string;
	replacements: LfReplacement[];
	/** The new file content (without BOM), original line endings kept where untouched. */
	fileContent: string;
}

function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
	return starts;
}

function lineIndexOf(starts: readonly number[], position: number): number {
	let low = 0;
	let high = starts.length - 1;
	while (low < high) {
		const mid = (low + high + 1) >> 1;
		if ((starts[mid] ?? 0) <= position) low = mid;
		else high = mid - 1;
	}
	return low;
}

function splice(text: string, replacements: readonly LfReplacement[]): string {
	let result = "";
	let cursor = 0;
	for (const { start, end, text: inserted } of replacements) {
		result += text.slice(cursor, start) + inserted;
		cursor = end;
	}
	return result + text.slice(cursor);
}

/**
 * Fuzzy matches are widened to the whole lines they touch, and those lines are rewritten from the
 * normalized text; edits sharing a line are rewritten together. Untouched lines keep their bytes.
 */
function widenToLines(lf: string, match: MatchResult): LfReplacement[] {
	const lfStarts = lineStarts(lf);
	const baseStarts = lineStarts(match.base);
	if (lfStarts.length !== baseStarts.length)
		throw new Error("Internal error: fuzzy normalization changed the line count");
	const lineEnd = (starts: readonly number[], text: string, line: number) =>
		line + 1 < starts.length ? (starts[line + 1] ?? 0) - 1 : text.length;

	const groups: { first: number; last: number; edits: MatchResult["edits"] }[] = [];
	for (const edit of match.edits) {
		const first = lineIndexOf(baseStarts, edit.start);
		const last = lineIndexOf(baseStarts, Math.max(edit.start, edit.end - 1));
		const group = groups[groups.length - 1];
		if (group && first <= group.last) {
			group.last = Math.max(group.last, last);
			group.edits.push(edit);
		} else groups.push({ first, last, edits: [edit] });
	}
	return groups.map(({ first, last, edits }) => {
		const segmentStart = baseStarts[first] ?? 0;
		const segment = match.base.slice(segmentStart, lineEnd(baseStarts, match.base, last));
		const rewritten = splice(
			segment,
			edits.map((edit) => ({ start: edit.start - segmentStart, end: edit.end - segmentStart, text: edit.newText })),
		);
		return { start: lfStarts[first] ?? 0, end: lineEnd(lfStarts, lf, last), text: rewritten };
	});
}

/** Splices LF-space replacements into content with CR line endings, keeping every untouched byte. */
function spliceIntoOriginal(original: string, lf: string, replacements: readonly LfReplacement[]): string {
	const lfStarts = lineStarts(lf);
	const originalStarts: number[] = [0];
	const endings: string[] = [];
	const lineBreak = /\r\n|\r|\n/g;
	for (let found = lineBreak.exec(original); found; found = lineBreak.exec(original)) {
		endings.push(found[0]);
		originalStarts.push(found.index + found[0].length);
	}
	const toOriginal = (position: number) => {
		const line = lineIndexOf(lfStarts, position);
		return (originalStarts[line] ?? 0) + (position - (lfStarts[line] ?? 0));
	};
	let result = "";
	let cursor = 0;
	for (const replacement of replacements) {
		const start = toOriginal(replacement.start);
		const startLine = lineIndexOf(lfStarts, replacement.start);
		const ending = endings[startLine] ?? endings[startLine - 1] ?? "\n";
		let text = replacement.text.replace(/\n/g, ending);
		// Keep a lone CR before the insertion from pairing with an inserted LF into one CRLF.
		if (original[start - 1] === "\r" && text.startsWith("\n")) text = `\r${text}`;
		result += original.slice(cursor, start) + text;
		cursor = toOriginal(replacement.end);
	}
	return result + original.slice(cursor);
}

/** Applies matched edits; throws when the result equals the original. */
export function applyEdits(original: string, lf: string, match: MatchResult, path: string): AppliedEdits {
	const replacements = match.fuzzy
		? widenToLines(lf, match)
		: match.edits.map((edit) => ({ start: edit.start, end: edit.end, text: edit.newText }));
	const newLf = splice(lf, replacements);
	if (newLf === lf) {
		throw new Error(
			`No changes made to ${path}. The replacement produced identical content. Make sure newText differs from oldText.`,
		);
	}
	const fileContent = original.includes("\r") ? spliceIntoOriginal(original, lf, replacements) : newLf;
	return { newLf, replacements, fileContent };
}
