import { McpConnectionClosedError } from "../errors.js";
import type { JsonRpcMessage } from "../protocol.js";
import { type McpTransport, TransportListeners } from "../transport/transport.js";

class InMemoryTransport extends TransportListeners implements McpTransport {
	peer: InMemoryTransport | undefined;
	private closed = false;

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
}

/** Two connected transports: what one sends the other receives. Closing one closes both. */
export function createInMemoryTransportPair(): [McpTransport, McpTransport] {
	const a = new InMemoryTransport();
	const b = new InMemoryTransport();
	a.peer = b;
	b.peer = a;
	return [a, b];
}
