/**
 * FIFO queue with amortized O(1) push/shift: consumed slots are reclaimed in bulk once they make up half
 * of the backing array, so draining a large backlog stays linear (never `Array.prototype.shift`).
 */
export class FifoQueue<T> {
	private items: T[] = [];
	private head = 0;
	/** Element copies made while compacting; lets tests prove the drain is linear. */
	moves = 0;

	get length(): number {
		return this.items.length - this.head;
	}

	push(item: T): void {
		this.items.push(item);
	}

	shift(): T | undefined {
		if (this.head >= this.items.length) return undefined;
		const item = this.items[this.head];
		this.items[this.head] = undefined as T;
		this.head++;
		if (this.head === this.items.length) {
			this.items = [];
			this.head = 0;
		} else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
			this.moves += this.items.length - this.head;
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return item;
	}
}
