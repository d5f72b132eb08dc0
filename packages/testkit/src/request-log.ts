import type { ProtocolName } from "./protocols/protocol.js";

/** How the server's side of an exchange ended. */
export type RequestOutcome =
	/** The response was sent in full (including HTTP errors and `truncate` faults). */
	| "completed"
	/** A `disconnect` fault destroyed the connection. */
	| "disconnected"
	/** The client went away before the response ended (e.g. it aborted a stall). */
	| "client-closed"
	/** `close()` (or the lifetime limit) ended the response. */
	| "server-closed";

/** One request the mock server received: method, path, protocol, headers, parsed body and how it ended. */
export interface RecordedRequest {
	/** Position in the log, from 0. */
	index: number;
	method: string;
	/** Path with query string, as received. */
	path: string;
	/** The protocol the path selected, or undefined for unknown routes. */
	protocol: ProtocolName | undefined;
	/** Lower-cased header names; repeated headers joined with ", ". */
	headers: Record<string, string>;
	/** The parsed JSON body, or undefined when the body was not JSON. */
	body: unknown;
	rawBody: string;
	/** Whether the body asked for a streaming reply. */
	stream: boolean;
	/** `Date.now()` when the body had been read. */
	receivedAt: number;
	/** HTTP status sent (undefined until the headers are sent, or when a stall never sent them). */
	status?: number;
	/** `Date.now()` when the exchange ended. */
	settledAt?: number;
	outcome?: RequestOutcome;
}

/** The request log with promise-based waits, so tests never poll or sleep. */
export class RequestLog {
	readonly entries: RecordedRequest[] = [];
	private readonly listeners = new Set<() => void>();

	add(entry: Omit<RecordedRequest, "index">): RecordedRequest {
		const recorded = { index: this.entries.length, ...entry };
		this.entries.push(recorded);
		this.changed();
		return recorded;
	}

	settle(entry: RecordedRequest, outcome: RequestOutcome): void {
		if (entry.outcome !== undefined) return;
		entry.outcome = outcome;
		entry.settledAt = Date.now();
		this.changed();
	}

	/** Resolves with the entry at `index` once `ready` holds for it. */
	waitFor(index: number, ready: (entry: RecordedRequest) => boolean): Promise<RecordedRequest> {
		return new Promise((resolve) => {
			const check = () => {
				const entry = this.entries[index];
				if (entry === undefined || !ready(entry)) return;
				this.listeners.delete(check);
				resolve(entry);
			};
			this.listeners.add(check);
			check();
		});
	}

	private changed(): void {
		for (const listener of [...this.listeners]) listener();
	}
}
