import type { EditReplacement } from "./prepare-arguments.js";

/** A located replacement in the matching space (LF content, or its fuzzy-normalized form). */
export interface LocatedEdit {
	index: number;
	start: number;
	end: number;
	newText: string;
}

export interface MatchResult {
	edits: LocatedEdit[];
	/** True when at least one edit needed fuzzy matching; positions then refer to `base`. */
	fuzzy: boolean;
	/** The content the positions refer to. */
	base: string;
}

/** Line endings to LF (CRLF and lone CR). */
export function toLf(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The fuzzy space: NFKC, trailing whitespace stripped per line, curly quotes, dashes and special
 * spaces folded to ASCII. Every fold keeps the number of lines.
 */
export function fuzzyNormalize(text: string): string {
	// ASCII text only needs the trailing-whitespace fold; one regex pass keeps large files fast.
	if (!NON_ASCII.test(text)) return text.replace(/[ \t\f\v]+$/gm, "");
	return text
		.normalize("NFKC")
		.split("\n")
		.map((line) => line.replace(/[ \t\f\v\u00a0\u2000-\u200a\u202f\u205f\u3000]+$/, ""))
		.join("\n")
		.replace(/[\u2018-\u201b]/g, "'")
		.replace(/[\u201c-\u201f]/g, '"')
		.replace(/[\u2010-\u2015\u2212]/g, "-")
		.replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " ");
}

function countOccurrences(haystack: string, needle: string): number {
	let count = 0;
	for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
	return count;
}

/**
 * Locates every edit in the same original content (never incrementally), enforcing non-empty,
 * found, unique and non-overlapping. Throws a message that tells the model what to do.
 */
export function matchEdits(content: string, edits: readonly EditReplacement[], path: string): MatchResult {
	const many = edits.length > 1;
	const name = (i: number) => `edits[${i}]`;
	const normalized = edits.map((edit) => ({ oldText: toLf(edit.oldText), newText: toLf(edit.newText) }));
	normalized.forEach((edit, i) => {
		if (edit.oldText === "") {
			throw new Error(
				many ? `${name(i)}.oldText must not be empty in ${path}.` : `oldText must not be empty in ${path}.`,
			);
		}
	});

	const fuzzy = normalized.some((edit) => !content.includes(edit.oldText));
	const base = fuzzy ? fuzzyNormalize(content) : content;
	const fuzzyContent = fuzzy ? base : fuzzyNormalize(content);
	const located = normalized.map((edit, i): LocatedEdit => {
		const needle = fuzzy ? fuzzyNormalize(edit.oldText) : edit.oldText;
		const start = base.indexOf(needle);
		if (start === -1) {
			throw new Error(
				many
					? `Could not find ${name(i)} in ${path}. The oldText must match exactly including all whitespace and newlines.`
					: `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
			);
		}
		const occurrences = countOccurrences(fuzzyContent, fuzzyNormalize(edit.oldText));
		if (occurrences > 1) {
			throw new Error(
				many
					? `Found ${occurrences} occurrences of ${name(i)} in ${path}. Each oldText must be unique. Please provide more context to make it unique.`
					: `Found ${occurrences} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`,
			);
		}
		return { index: i, start, end: start + needle.length, newText: edit.newText };
	});

	const sorted = [...located].sort((a, b) => a.start - b.start);
	for (let i = 1; i < sorted.length; i++) {
		const previous = sorted[i - 1];
		const current = sorted[i];
		if (previous && current && current.start < previous.end) {
			const [first, second] = [previous.index, current.index].sort((a, b) => a - b);
			throw new Error(
				`edits[${first}] and edits[${second}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
			);
		}
	}
	return { edits: sorted, fuzzy, base };
}
