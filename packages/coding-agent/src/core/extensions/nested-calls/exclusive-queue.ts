/**
 * The global queue exclusive nested calls run through. A call nested under a call that holds the
 * queue inherits the hold (otherwise it would wait for its own caller and deadlock).
 */
export class ExclusiveQueue {
	private tail: Promise<void> = Promise.resolve();
	private readonly holders = new Set<string>();

	private inheritsHold(callId: string): boolean {
		for (let id = callId; id.includes("/"); ) {
			id = id.slice(0, id.lastIndexOf("/"));
			if (this.holders.has(id)) return true;
		}
		return false;
	}

	async run<T>(callId: string, task: () => Promise<T>): Promise<T> {
		if (this.inheritsHold(callId)) return task();
		const previous = this.tail;
		let release!: () => void;
		this.tail = new Promise<void>((resolve) => {
			release = resolve;
		});
		await previous;
		this.holders.add(callId);
		try {
			return await task();
		} finally {
			this.holders.delete(callId);
			release();
		}
	}
}
