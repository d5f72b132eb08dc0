import type { AgentMessage, QueueMode } from "./types/messages.js";

/** Messages waiting for the loop's next injection point; the mode decides how many one poll delivers. */
export class PendingMessageQueue {
	#items: AgentMessage[] = [];

	constructor(public mode: QueueMode) {}

	enqueue(message: AgentMessage): void {
		this.#items.push(message);
	}

	hasItems(): boolean {
		return this.#items.length > 0;
	}

	/** What `drain()` would return, without consuming it. */
	peek(): AgentMessage[] {
		if (this.mode === "all") return this.#items.slice();
		return this.#items.slice(0, 1);
	}

	drain(): AgentMessage[] {
		if (this.mode === "all") return this.#items.splice(0);
		return this.#items.splice(0, 1);
	}

	clear(): void {
		this.#items = [];
	}
}
