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

/** Line access without splitting the file: start offsets once, line text on demand. */
class LineIndex {
	private readonly starts: number[] = [0];
	readonly count: number;
	readonly endsWithNewline: boolean;

	constructor(private readonly text: string) {
		for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
		this.endsWithNewline = text === "" || text.endsWith("\n");
		this.count = text === "" ? 0 : this.endsWithNewline ? this.starts.length - 1 : this.starts.length;
	}

	line(index: number): string {
		const start = this.starts[index] ?? this.text.length;
		const next = this.starts[index + 1];
		return this.text.slice(start, next === undefined ? this.text.length : next - 1);
	}

	/** Comparison key: the line, marked when it is the last one and lacks a newline. */
	key(index: number): string {
		const line = this.line(index);
		return index === this.count - 1 && !this.endsWithNewline ? `${line}\u0000` : line;
	}

	/** 0-based line containing `position`. */
	lineAt(position: number): number {
		let low = 0;
		let high = this.starts.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if ((this.starts[mid] ?? 0) <= position) low = mid;
			else high = mid - 1;
		}
		return low;
	}

	keys(from: number, to: number): string[] {
		const keys: string[] = [];
		for (let i = from; i < to; i++) keys.push(this.key(i));
		return keys;
	}
}

interface Op {
	kind: " " | "-" | "+";
	/** 0-based index in the old file (context/removed) or new file (added). */
	oldIndex: number;
	newIndex: number;
}

/** Line ranges (half-open) of old and new files touched by the replacements, merged when they meet. */
function changedRegions(before: LineIndex, after: LineIndex, replacements: readonly LfReplacement[]) {
	const regions: { oldStart: number; oldEnd: number; newStart: number; newEnd: number }[] = [];
	let delta = 0;
	for (const replacement of replacements) {
		const newStart = replacement.start + delta;
		const region = {
			oldStart: before.lineAt(replacement.start),
			oldEnd: Math.min(before.count, before.lineAt(replacement.end) + 1),
			newStart: after.lineAt(newStart),
			newEnd: Math.min(after.count, after.lineAt(newStart + replacement.text.length) + 1),
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
	const before = new LineIndex(oldLf);
	const after = new LineIndex(newLf);
	const width = String(Math.max(before.count, after.count)).length;

	// Each hunk: the changed ops of adjacent regions plus their surrounding context.
	const hunks: Op[][] = [];
	let lastOldEnd = -1;
	const regions = changedRegions(before, after, replacements);
	regions.forEach((region, r) => {
		const regionOps = diffRegion(
			before.keys(region.oldStart, region.oldEnd),
			after.keys(region.newStart, region.newEnd),
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
		const nextStart = regions[r + 1]?.oldStart ?? before.count;
		const trailingEnd = Math.min(nextStart, before.count, oldEnd + CONTEXT_LINES);
		for (let i = oldEnd; i < trailingEnd; i++) hunk.push({ kind: " ", oldIndex: i, newIndex: i + newEnd - oldEnd });
		lastOldEnd = trailingEnd;
	});
	const display: string[] = [];
	const patch: string[] = [`--- ${path}`, `+++ ${path}`];
	let firstChangedLine: number | undefined;
	// Unchanged lines left out are marked where they are: before, between and after the hunks.
	const skipped = ` ${"".padStart(width)} ...`;
	if ((hunks[0]?.[0]?.oldIndex ?? 0) > 0) display.push(skipped);
	hunks.forEach((ops, h) => {
		if (h > 0) display.push(skipped);
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
			const text = op.kind === "+" ? after.line(op.newIndex) : before.line(op.oldIndex);
			const number = op.kind === "+" ? op.newIndex + 1 : op.oldIndex + 1;
			display.push(`${op.kind}${String(number).padStart(width)} ${text}`);
			patch.push(`${op.kind}${text}`);
			const lastOld = op.kind !== "+" && op.oldIndex === before.count - 1 && !before.endsWithNewline;
			const lastNew = op.kind !== "-" && op.newIndex === after.count - 1 && !after.endsWithNewline;
			if ((op.kind === "-" && lastOld) || (op.kind === "+" && lastNew) || (op.kind === " " && lastOld)) {
				patch.push("\\ No newline at end of file");
			}
			if (firstChangedLine === undefined && op.kind !== " ") firstChangedLine = op.newIndex + 1;
		}
	});
	const lastOp = hunks.at(-1)?.at(-1);
	if (lastOp && (lastOp.kind === "+" ? lastOp.oldIndex : lastOp.oldIndex + 1) < before.count) display.push(skipped);
	const result: EditDiff = { diff: display.join("\n"), patch: `${patch.join("\n")}\n` };
	if (firstChangedLine !== undefined) result.firstChangedLine = firstChangedLine;
	return result;
}
