import { McpConnectionClosedError } from "../errors.js";
import type { JsonRpcMessage } from "../protocol.js";
import { Listeners, type McpTransport } from "../transport/transport.js";

class InMemoryTransport implements McpTransport {
	peer: InMemoryTransport | undefined;
	private closed = false;
	private readonly messages = new Listeners<[JsonRpcMessage]>();
	private readonly errors = new Listeners<[Error]>();
	private readonly closes = new Listeners<[]>();

	async start(): Promise<void> {}
	async send(message: JsonRpcMessage): Promise<void> {
		const peer = this.peer;
		if (this.closed || !peer || peer.closed) throw new McpConnectionClosedError();
		// Copy and deliver asynchronously, as a real wire would.
		const copy = structuredClone(message);
		queueMicrotask(() => peer.messages.emit(copy));
	}
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.closes.emit();
		await this.peer?.close();
	}
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

/** Two connected transports: what one sends the other receives. Closing one closes both. */
export function createInMemoryTransportPair(): [McpTransport, McpTransport] {
	const a = new InMemoryTransport();
	const b = new InMemoryTransport();
	a.peer = b;
	b.peer = a;
	return [a, b];
}
