import type { BodyReadWatch } from "./stall-watchdog.js";

/** One server-sent event: its `event` field (`null` when absent) and its `data` lines joined by LF. */
export interface SseMessage {
	event: string | null;
	data: string;
}

/**
 * Splits an event stream (the WHATWG `text/event-stream` format: LF, CRLF or CR line ends, a blank line
 * ends a message, only `event` and `data` matter here) into messages. Each `push` returns the messages
 * its chunk completed, so a reader handles a whole network read at once instead of awaiting per event
 * (docs/ai.md, "Streaming cost").
 */
export class SseParser {
	/** Bytes after the last line end: part of a line, possibly ending inside a UTF-8 sequence. */
	private carry: Buffer[] = [];
	/** Text after the last complete line. */
	private pending = "";
	private event: string | null = null;
	/** The message's `data` lines joined by LF so far; `null` before its first. */
	private data: string | null = null;
	private lastEvent = "";

	push(chunk: Uint8Array): SseMessage[] {
		const decoded = this.decode(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
		// Text without any line end completes nothing; a CR left over may still be half of a CRLF.
		if (decoded === "") return [];
		const text = this.pending === "" ? decoded : this.pending + decoded;
		const messages: SseMessage[] = [];
		let start = 0;
		if (!text.includes("\r")) {
			for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
				this.takeLine(text, start, end, messages);
				start = end + 1;
			}
		} else {
			for (let i = 0; i < text.length; i++) {
				const char = text.charCodeAt(i);
				if (char !== 0x0a && char !== 0x0d) continue;
				// A CR at the very end waits for the next chunk: it may be followed by its LF.
				if (char === 0x0d && i + 1 === text.length) break;
				this.takeLine(text, start, i, messages);
				if (char === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
				start = i + 1;
			}
		}
		this.pending = text.slice(start);
		return messages;
	}

	/** End of the stream: the last lines count, an unterminated message is dropped (as the format says). */
	end(): SseMessage[] {
		const rest = Buffer.concat(this.carry).toString("utf8");
		this.carry = [];
		const text = this.pending + rest;
		this.pending = "";
		const messages: SseMessage[] = [];
		// A final lone CR still ends its line (an empty one, which may end a message).
		if (text !== "")
			for (const line of text.replace(/\r$/, "").split(/\r\n|[\n\r]/)) this.takeLine(line, 0, line.length, messages);
		return messages;
	}

	/**
	 * The text up to the chunk's last line end. Line ends are ASCII and never part of a multi-byte UTF-8
	 * sequence, so that prefix decodes whole and the rest waits for the chunk that ends its line; one
	 * plain decode per read, no streaming decoder state.
	 */
	private decode(chunk: Buffer): string {
		const end = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
		if (end === -1) {
			this.carry.push(chunk);
			return "";
		}
		let text: string;
		if (this.carry.length === 0) text = chunk.toString("utf8", 0, end + 1);
		else {
			this.carry.push(chunk.subarray(0, end + 1));
			text = Buffer.concat(this.carry).toString("utf8");
		}
		this.carry = end + 1 < chunk.length ? [chunk.subarray(end + 1)] : [];
		return text;
	}

	/**
	 * The line `text[start, end)`, read in place: slicing each line and then its field name cost more
	 * than the rest of the per-message work on token streams (docs/ai.md, "Streaming cost").
	 */
	private takeLine(text: string, start: number, end: number, messages: SseMessage[]): void {
		if (start < end && text.charCodeAt(start) === 0xfeff) start++;
		if (start === end) {
			if (this.event === null && this.data === null) return;
			messages.push({ event: this.event, data: this.data ?? "" });
			this.event = null;
			this.data = null;
			return;
		}
		let colon = start;
		while (colon < end && text.charCodeAt(colon) !== 0x3a) colon++;
		if (colon === start) return;
		const nameLength = colon - start;
		const isEvent = nameLength === 5 && text.startsWith("event", start);
		if (!isEvent && !(nameLength === 4 && text.startsWith("data", start))) return;
		const valueStart =
			colon === end ? end : colon + 1 < end && text.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1;
		if (isEvent) this.event = this.eventName(text, valueStart, end);
		else {
			const value = text.slice(valueStart, end);
			this.data = this.data === null ? value : `${this.data}\n${value}`;
		}
	}

	/** The event name `text[start, end)`, the previous one's string when equal: a stream repeats a few names. */
	private eventName(text: string, start: number, end: number): string {
		const previous = this.lastEvent;
		if (previous.length === end - start && text.startsWith(previous, start)) return previous;
		this.lastEvent = text.slice(start, end);
		return this.lastEvent;
	}
}

/** Fetch rejects an aborted body read with an `AbortError`. */
function isAbortError(error: unknown): boolean {
	return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/**
 * The messages of an SSE response body, one batch per network read. An aborted read ends the batches
 * quietly, as the SDKs' own streams do (the adapter then reports the abort). A consumer that stops
 * early (or throws) cancels the body, which releases the connection. `watch` hears of each network
 * read (the stall watchdog times only the waits for bytes).
 */
export async function* readSseBatches(response: Response, watch?: BodyReadWatch): AsyncGenerator<SseMessage[]> {
	if (!response.body) throw new Error("Attempted to iterate over a response with no body");
	const parser = new SseParser();
	const reader = response.body.getReader();
	let finished = false;
	try {
		for (;;) {
			let read: Awaited<ReturnType<typeof reader.read>>;
			watch?.beforeRead();
			try {
				read = await reader.read();
			} catch (error) {
				if (isAbortError(error)) return;
				throw error;
			} finally {
				watch?.afterRead();
			}
			const { done, value } = read;
			if (done) break;
			const messages = parser.push(value);
			if (messages.length > 0) yield messages;
		}
		finished = true;
		const rest = parser.end();
		if (rest.length > 0) yield rest;
	} finally {
		// A finished body needs nothing more; releasing the lock would build (and stack-trace) an error for
		// reads that cannot be pending, on every response.
		if (!finished) void reader.cancel().catch(() => undefined);
	}
}
