import { type JsonRpcMessage, parseJsonRpcMessage } from "../../protocol.js";

export interface LineFramerSink {
	message(message: JsonRpcMessage): void;
	error(error: Error): void;
}

/**
 * Splits newline-delimited JSON-RPC. Partial data is kept as a chunk list and joined once per
 * message, so a message delivered in tiny chunks costs linear time.
 */
export class LineFramer {
	private chunks: Buffer[] = [];
	private pendingBytes = 0;
	/** Set while discarding the rest of an oversized line. */
	private skipping = false;

	constructor(
		private readonly maxMessageBytes: number,
		private readonly sink: LineFramerSink,
	) {}

	push(data: Buffer): void {
		let start = 0;
		for (;;) {
			const newline = data.indexOf(10, start);
			if (newline === -1) {
				this.keep(data.subarray(start));
				return;
			}
			this.keep(data.subarray(start, newline));
			this.finishLine();
			start = newline + 1;
		}
	}

	/** The stream ended: anything left is an incomplete message. */
	end(): void {
		if (this.pendingBytes > 0 && !this.skipping) {
			const text = Buffer.concat(this.chunks).toString("utf8").trim();
			if (text !== "")
				this.sink.error(new Error(`MCP server output ended inside a message (${this.pendingBytes} bytes)`));
		}
		this.reset();
	}

	private keep(part: Buffer): void {
		if (part.length === 0 || this.skipping) return;
		this.pendingBytes += part.length;
		if (this.pendingBytes > this.maxMessageBytes) {
			this.sink.error(new Error(`MCP message exceeds ${this.maxMessageBytes} bytes; dropped`));
			this.chunks = [];
			this.skipping = true;
			return;
		}
		this.chunks.push(part);
	}

	private finishLine(): void {
		if (this.skipping) {
			this.reset();
			return;
		}
		let line = (this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)).toString("utf8");
		this.reset();
		if (line.endsWith("\r")) line = line.slice(0, -1);
		if (line.trim() === "") return;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (error) {
			this.sink.error(new Error(`Invalid JSON from MCP server: ${(error as Error).message}`));
			return;
		}
		const message = parseJsonRpcMessage(value);
		if (typeof message === "string") this.sink.error(new Error(`Invalid message from MCP server: ${message}`));
		else this.sink.message(message);
	}

	private reset(): void {
		this.chunks = [];
		this.pendingBytes = 0;
		this.skipping = false;
	}
}
