const MAX_ENTRIES = 60;

/** Emacs-style kill ring: consecutive kills accumulate, yank-pop rotates. */
export class KillRing {
	private entries: string[] = [];

	/** Records killed text; `accumulate` joins it with the newest entry (prepending for backward kills). */
	push(text: string, options: { accumulate: boolean; backward: boolean }): void {
		if (text.length === 0) return;
		if (options.accumulate && this.entries.length > 0) {
			const last = this.entries.length - 1;
			this.entries[last] = options.backward ? text + this.entries[last] : this.entries[last] + text;
			return;
		}
		this.entries.push(text);
		if (this.entries.length > MAX_ENTRIES) this.entries.shift();
	}

	/** The newest entry. */
	current(): string | undefined {
		return this.entries[this.entries.length - 1];
	}

	/** Moves the newest entry to the back and returns the new newest one. */
	rotate(): string | undefined {
		if (this.entries.length < 2) return this.current();
		this.entries.unshift(this.entries.pop()!);
		return this.current();
	}
}
