export interface SseEvent {
	event: string;
	data: string;
	id: string | undefined;
}

export interface SseParserOptions {
	maxBytes: number;
	onEvent(event: SseEvent): void;
	/** A `retry:` field with digits only. */
	onRetry(ms: number): void;
	/** Every `id:` field without NUL, even on events without data. */
	onId(id: string): void;
}

/**
 * Incremental `text/event-stream` parser. Lines end with CRLF, LF or a lone CR (also split
 * across chunks). Event data and the unconsumed buffer are bounded; overflow throws.
 */
export class SseParser {
	private buffer = "";
	private pendingCr = false;
	private data: string[] = [];
	private dataLength = 0;
	private eventType = "";
	private lastId: string | undefined;

	constructor(private readonly options: SseParserOptions) {}

	push(text: string): void {
		let chunk = text;
		if (this.pendingCr) {
			this.pendingCr = false;
			if (chunk.startsWith("\n")) chunk = chunk.slice(1);
		}
		this.buffer += chunk;
		let start = 0;
		for (;;) {
			const match = /\r\n|\r|\n/g;
			match.lastIndex = start;
			const found = match.exec(this.buffer);
			if (!found) break;
			// A trailing CR may be the first half of CRLF split across chunks.
			if (found[0] === "\r" && found.index === this.buffer.length - 1) {
				this.pendingCr = true;
			}
			this.line(this.buffer.slice(start, found.index));
			start = found.index + found[0].length;
		}
		this.buffer = this.buffer.slice(start);
		if (this.buffer.length > this.options.maxBytes) {
			throw new Error(`SSE line exceeds ${this.options.maxBytes} bytes`);
		}
	}

	private line(line: string): void {
		if (line === "") {
			this.dispatch();
			return;
		}
		if (line.startsWith(":")) return;
		const colon = line.indexOf(":");
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? "" : line.slice(colon + 1);
		if (value.startsWith(" ")) value = value.slice(1);
		switch (field) {
			case "data":
				this.dataLength += value.length + 1;
				if (this.dataLength > this.options.maxBytes)
					throw new Error(`SSE event exceeds ${this.options.maxBytes} bytes`);
				this.data.push(value);
				break;
			case "event":
				this.eventType = value;
				break;
			case "id":
				if (!value.includes("\0")) {
					this.lastId = value;
					this.options.onId(value);
				}
				break;
			case "retry":
				if (/^\d+$/.test(value)) this.options.onRetry(Number(value));
				break;
		}
	}

	private dispatch(): void {
		const event: SseEvent = { event: this.eventType || "message", data: this.data.join("\n"), id: this.lastId };
		this.data = [];
		this.dataLength = 0;
		this.eventType = "";
		if (event.data !== "") this.options.onEvent(event);
	}
}
