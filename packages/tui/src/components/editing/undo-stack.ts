/** Undo snapshots with fish-style coalescing of typing runs. */
export class UndoStack<T> {
	private stack: T[] = [];
	private typingRun = false;

	constructor(private readonly clone: (state: T) => T) {}

	/** Snapshot before a mutation that is not typing. */
	push(state: T): void {
		this.stack.push(this.clone(state));
		this.typingRun = false;
		if (this.stack.length > 500) this.stack.shift();
	}

	/**
	 * Snapshot before typing `char`: consecutive word characters form one unit; every whitespace
	 * character starts a new one.
	 */
	pushTyping(state: T, char: string): void {
		const whitespace = /\s/.test(char);
		if (whitespace || !this.typingRun) this.push(state);
		this.typingRun = !whitespace;
	}

	/** Ends the current typing run (cursor movement etc.). */
	breakRun(): void {
		this.typingRun = false;
	}

	pop(): T | undefined {
		this.typingRun = false;
		return this.stack.pop();
	}

	clear(): void {
		this.stack = [];
		this.typingRun = false;
	}
}
