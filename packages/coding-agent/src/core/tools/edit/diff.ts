import type { LfReplacement } from "./apply.js";

/** Unchanged lines shown around each change (display diff and patch). */
const CONTEXT_LINES = 4;
/** Above this many cells the line diff of one region gives up on LCS and replaces it whole. */
const MAX_LCS_CELLS = 4_000_000;

export interface EditDiff {
	diff: string;
	patch: string;
	firstChangedLine?: number;
}

interface FileLines {
	lines: string[];
	/** Comparison keys: the line, marked when it is the last one and lacks a newline. */
	keys: string[];
	endsWithNewline: boolean;
}

function toFileLines(text: string): FileLines {
	const lines = text === "" ? [] : text.split("\n");
	const endsWithNewline = text === "" || text.endsWith("\n");
	if (endsWithNewline && lines.length > 0) lines.pop();
	const keys = lines.map((line, i) => (i === lines.length - 1 && !endsWithNewline ? `${line}\u0000` : line));
	return { lines, keys, endsWithNewline };
}

interface Op {
	kind: " " | "-" | "+";
	/** 0-based index in the old file (context/removed) or new file (added). */
	oldIndex: number;
	newIndex: number;
}

function lineOf(text: string, position: number): number {
	let line = 0;
	for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) line++;
	return line;
}

/** Line ranges (half-open) of old and new files touched by the replacements, merged when they meet. */
function changedRegions(oldLf: string, replacements: readonly LfReplacement[], oldCount: number, newCount: number) {
	const regions: { oldStart: number; oldEnd: number; newStart: number; newEnd: number }[] = [];
	let delta = 0;
	let newText = "";
	let cursor = 0;
	for (const replacement of replacements) {
		newText += oldLf.slice(cursor, replacement.start) + replacement.text;
		cursor = replacement.end;
		const newStartPos = replacement.start + delta;
		const region = {
			oldStart: lineOf(oldLf, replacement.start),
			oldEnd: Math.min(oldCount, lineOf(oldLf, replacement.end) + 1),
			newStart: lineOf(newText, newStartPos),
			newEnd: Math.min(newCount, lineOf(newText, newText.length) + 1),
		};
		delta += replacement.text.length - (replacement.end - replacement.start);
		const previous = regions[regions.length - 1];
		if (previous && region.oldStart <= previous.oldEnd) {
			previous.oldEnd = Math.max(previous.oldEnd, region.oldEnd);
			previous.newEnd = Math.max(previous.newEnd, region.newEnd);
		} else regions.push(region);
	}
	return regions;
}

/** Line-level diff of one region: common ends trimmed, LCS in between. */
function diffRegion(oldKeys: string[], newKeys: string[], oldStart: number, newStart: number): Op[] {
	const ops: Op[] = [];
	let head = 0;
	while (head < oldKeys.length && head < newKeys.length && oldKeys[head] === newKeys[head]) {
		ops.push({ kind: " ", oldIndex: oldStart + head, newIndex: newStart + head });
		head++;
	}
	let tail = 0;
	while (
		tail < oldKeys.length - head &&
		tail < newKeys.length - head &&
		oldKeys[oldKeys.length - 1 - tail] === newKeys[newKeys.length - 1 - tail]
	) {
		tail++;
	}
	const a = oldKeys.slice(head, oldKeys.length - tail);
	const b = newKeys.slice(head, newKeys.length - tail);
	const o = oldStart + head;
	const n = newStart + head;
	if (a.length * b.length > MAX_LCS_CELLS || a.length === 0 || b.length === 0) {
		for (let i = 0; i < a.length; i++) ops.push({ kind: "-", oldIndex: o + i, newIndex: n });
		for (let j = 0; j < b.length; j++) ops.push({ kind: "+", oldIndex: o + a.length, newIndex: n + j });
	} else {
		const width = b.length + 1;
		const table = new Uint32Array((a.length + 1) * width);
		for (let i = a.length - 1; i >= 0; i--) {
			for (let j = b.length - 1; j >= 0; j--) {
				table[i * width + j] =
					a[i] === b[j]
						? (table[(i + 1) * width + j + 1] ?? 0) + 1
						: Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
			}
		}
		let i = 0;
		let j = 0;
		while (i < a.length || j < b.length) {
			if (i < a.length && j < b.length && a[i] === b[j])
				ops.push({ kind: " ", oldIndex: o + i++, newIndex: n + j++ });
			else if (
				i < a.length &&
				(j >= b.length || (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))
			) {
				ops.push({ kind: "-", oldIndex: o + i++, newIndex: n + j });
			} else ops.push({ kind: "+", oldIndex: o + i, newIndex: n + j++ });
		}
	}
	for (let k = tail; k > 0; k--) {
		ops.push({ kind: " ", oldIndex: oldStart + oldKeys.length - k, newIndex: newStart + newKeys.length - k });
	}
	return ops;
}

/**
 * The display diff, unified patch and first changed line of an edit, computed only in windows
 * around the replacements (cost follows the change, not the file).
 */
export function computeEditDiff(
	path: string,
	oldLf: string,
	newLf: string,
	replacements: readonly LfReplacement[],
): EditDiff {
	const before = toFileLines(oldLf);
	const after = toFileLines(newLf);
	const width = String(Math.max(before.lines.length, after.lines.length)).length;

	// Each hunk: the changed ops of adjacent regions plus their surrounding context.
	const hunks: Op[][] = [];
	let lastOldEnd = -1;
	const regions = changedRegions(oldLf, replacements, before.lines.length, after.lines.length);
	regions.forEach((region, r) => {
		const regionOps = diffRegion(
			before.keys.slice(region.oldStart, region.oldEnd),
			after.keys.slice(region.newStart, region.newEnd),
			region.oldStart,
			region.newStart,
		);
		// Context is counted from the changed lines, not from the (line-widened) region bounds.
		const firstChange = regionOps.findIndex((op) => op.kind !== " ");
		const lastChange = regionOps.findLastIndex((op) => op.kind !== " ");
		const first = regionOps[firstChange];
		const last = regionOps[lastChange];
		if (!first || !last) return;
		const ops = regionOps.slice(firstChange, lastChange + 1);
		const oldStart = first.oldIndex;
		const newStart = first.newIndex;
		const oldEnd = last.kind === "-" ? last.oldIndex + 1 : last.oldIndex;
		const newEnd = last.kind === "+" ? last.newIndex + 1 : last.newIndex;

		const contextStart = Math.max(0, oldStart - CONTEXT_LINES);
		const leading: Op[] = [];
		for (let i = Math.max(contextStart, lastOldEnd); i < oldStart; i++) {
			leading.push({ kind: " ", oldIndex: i, newIndex: i + newStart - oldStart });
		}
		const current = hunks[hunks.length - 1];
		if (current && contextStart <= lastOldEnd) current.push(...leading, ...ops);
		else hunks.push([...leading, ...ops]);
		const hunk = hunks[hunks.length - 1] ?? [];
		const nextStart = regions[r + 1]?.oldStart ?? before.lines.length;
		const trailingEnd = Math.min(nextStart, before.lines.length, oldEnd + CONTEXT_LINES);
		for (let i = oldEnd; i < trailingEnd; i++) hunk.push({ kind: " ", oldIndex: i, newIndex: i + newEnd - oldEnd });
		lastOldEnd = trailingEnd;
	});
	const display: string[] = [];
	const patch: string[] = [`--- ${path}`, `+++ ${path}`];
	let firstChangedLine: number | undefined;
	hunks.forEach((ops, h) => {
		if (h > 0) display.push(` ${"".padStart(width)} ...`);
		const oldLines = ops.filter((op) => op.kind !== "+");
		const newLines = ops.filter((op) => op.kind !== "-");
		const range = (list: Op[], pick: (op: Op) => number, fallback: number) => {
			const first = list[0];
			if (!first) return `${fallback},0`;
			return `${pick(first) + 1},${list.length}`;
		};
		const firstOp = ops[0];
		patch.push(
			`@@ -${range(oldLines, (op) => op.oldIndex, firstOp?.oldIndex ?? 0)} +${range(newLines, (op) => op.newIndex, firstOp?.newIndex ?? 0)} @@`,
		);
		for (const op of ops) {
			const text = op.kind === "+" ? (after.lines[op.newIndex] ?? "") : (before.lines[op.oldIndex] ?? "");
			const number = op.kind === "+" ? op.newIndex + 1 : op.oldIndex + 1;
			display.push(`${op.kind}${String(number).padStart(width)} ${text}`);
			patch.push(`${op.kind}${text}`);
			const lastOld = op.kind !== "+" && op.oldIndex === before.lines.length - 1 && !before.endsWithNewline;
			const lastNew = op.kind !== "-" && op.newIndex === after.lines.length - 1 && !after.endsWithNewline;
			if ((op.kind === "-" && lastOld) || (op.kind === "+" && lastNew) || (op.kind === " " && lastOld)) {
				patch.push("\\ No newline at end of file");
			}
			if (firstChangedLine === undefined && op.kind !== " ") firstChangedLine = op.newIndex + 1;
		}
	});
	const result: EditDiff = { diff: display.join("\n"), patch: `${patch.join("\n")}\n` };
	if (firstChangedLine !== undefined) result.firstChangedLine = firstChangedLine;
	return result;
}
