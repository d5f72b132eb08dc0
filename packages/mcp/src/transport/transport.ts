import type { JsonRpcMessage } from "../protocol.js";

/** Default upper bound for one framed message. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Options of one `McpTransport.send`. */
export interface McpSendOptions {
	/** Aborted when the request settles; transports must not dispatch (or re-dispatch) after that. */
	signal?: AbortSignal;
}

/** Moves JSON-RPC messages; the client owns correlation, handshake, timeouts and cancellation. */
export interface McpTransport {
	start(): Promise<void>;
	send(message: JsonRpcMessage, options?: McpSendOptions): Promise<void>;
	close(): Promise<void>;
	onMessage(listener: (message: JsonRpcMessage) => void): () => void;
	onError(listener: (error: Error) => void): () => void;
	/** Fires at most once. */
	onClose(listener: () => void): () => void;
	setProtocolVersion?(version: string): void;
	/**
	 * For a host about to exit: whatever close() still waits for (a process, a request) stops keeping
	 * the event loop alive. Call after close().
	 */
	release?(): void;
}

/**
 * The listener side every transport shares: `onMessage`, `onError` and `onClose` register on the
 * sets a subclass emits to.
 */
export abstract class TransportListeners {
	protected readonly messages = new Listeners<[JsonRpcMessage]>();
	protected readonly errors = new Listeners<[Error]>();
	protected readonly closes = new Listeners<[]>();

	onMessage(listener: (message: JsonRpcMessage) => void): () => void {
		return this.messages.add(listener);
	}
	onError(listener: (error: Error) => void): () => void {
		return this.errors.add(listener);
	}
	onClose(listener: () => void): () => void {
		return this.closes.add(listener);
	}
}

/** A tiny listener set used by transports and the client. */
export class Listeners<T extends unknown[]> {
	private readonly set = new Set<(...args: T) => void>();
	add(listener: (...args: T) => void): () => void {
		this.set.add(listener);
		return () => {
			this.set.delete(listener);
		};
	}
	emit(...args: T): void {
		for (const listener of [...this.set]) listener(...args);
	}
	clear(): void {
		this.set.clear();
	}
}
