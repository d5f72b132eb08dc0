/**
 * Per-line post-processing kept in place across frames. Unchanged lines are usually the very same
 * string objects as last frame, so a long transcript costs a pointer comparison per line (or
 * nothing before `from`, when the caller knows the earlier lines did not change).
 */
export class LineCache {
	private inputs: string[] = [];
	/** The processed frame (mutated in place by `update`). */
	readonly outputs: string[] = [];

	/**
	 * Processes `lines` (those before `from` are known unchanged) and returns the range of output
	 * indices whose content changed, or first = -1 when none did. Length changes are the caller's.
	 */
	update(lines: readonly string[], fn: (line: string) => string, from = 0): { first: number; last: number } {
		let first = -1;
		let last = -1;
		const n = lines.length;
		for (let i = Math.min(from, this.inputs.length); i < n; i++) {
			const line = lines[i]!;
			if (line === this.inputs[i] && i < this.outputs.length) continue;
			this.inputs[i] = line;
			const out = fn(line);
			if (out !== this.outputs[i]) {
				if (first < 0) first = i;
				last = i;
				this.outputs[i] = out;
			}
		}
		this.inputs.length = n;
		this.outputs.length = n;
		return { first, last };
	}

	clear(): void {
		this.inputs = [];
		this.outputs.length = 0;
	}
}
