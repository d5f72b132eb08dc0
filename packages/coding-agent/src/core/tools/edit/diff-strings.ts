import type { LfReplacement } from "./apply.js";
import { computeEditDiff } from "./diff.js";

/** How many characters `before` and `after` share at their start and, after that, at their end. */
export function commonAffixLengths(before: string, after: string): { prefix: number; suffix: number } {
	const shorter = Math.min(before.length, after.length);
	let prefix = 0;
	while (prefix < shorter && before[prefix] === after[prefix]) prefix++;
	let suffix = 0;
	while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix])
		suffix++;
	return { prefix, suffix };
}

/** The one replacement that turns `before` into `after`: everything between their common prefix and suffix. */
function wholeChange(before: string, after: string): LfReplacement[] {
	if (before === after) return [];
	const { prefix, suffix } = commonAffixLengths(before, after);
	return [{ start: prefix, end: before.length - suffix, text: after.slice(prefix, after.length - suffix) }];
}

/** The edit tool's display diff (numbered lines, `contextLines` of context) between two texts. */
export function generateDiffString(
	oldContent: string,
	newContent: string,
	contextLines?: number,
): { diff: string; firstChangedLine: number | undefined } {
	const { diff, firstChangedLine } = computeEditDiff(
		"",
		oldContent,
		newContent,
		wholeChange(oldContent, newContent),
		contextLines,
	);
	return { diff, firstChangedLine };
}

/** A unified patch (`--- path` / `+++ path` and `@@` hunks) between two texts. */
export function generateUnifiedPatch(
	path: string,
	oldContent: string,
	newContent: string,
	contextLines?: number,
): string {
	return computeEditDiff(path, oldContent, newContent, wholeChange(oldContent, newContent), contextLines).patch;
}
