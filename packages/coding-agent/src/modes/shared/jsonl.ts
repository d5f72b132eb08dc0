import { StringDecoder } from "node:string_decoder";

/**
 * Strict JSONL framing (docs/design/rpc.md#framing): records end at LF only, one CR before the LF is
 * dropped, and U+2028/U+2029 are ordinary characters. Node's `readline` splits on those two, so it
 * is never used here.
 */
export class JsonlSplitter {
	// StringDecoder keeps a multi-byte sequence cut by a chunk boundary until its last byte arrives.
	private readonly decoder = new StringDecoder("utf8");
	private buffer = "";

	constructor(private readonly onLine: (line: string) => void) {}

	push(chunk: Buffer | string): void {
		this.buffer += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
		let start = 0;
		let newline = this.buffer.indexOf("\n", start);
		while (newline !== -1) {
			this.emit(this.buffer.slice(start, newline));
			start = newline + 1;
			newline = this.buffer.indexOf("\n", start);
		}
		this.buffer = this.buffer.slice(start);
	}

	/** End of input: a non-empty unterminated tail is a final record. */
	end(): void {
		this.buffer += this.decoder.end();
		const tail = this.buffer;
		this.buffer = "";
		if (tail !== "") this.emit(tail);
	}

	private emit(line: string): void {
		this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
	}
}

/**
 * Feeds every LF-terminated line of `stream` to `onLine` and calls `onEnd` once after the final
 * (possibly unterminated) line. Returns a detach function that stops listening without ending.
 */
export function attachJsonlLineReader(
	stream: NodeJS.ReadableStream,
	onLine: (line: string) => void,
	onEnd?: () => void,
): () => void {
	const splitter = new JsonlSplitter(onLine);
	let ended = false;
	const onData = (chunk: Buffer | string) => splitter.push(chunk);
	const finish = () => {
		if (ended) return;
		ended = true;
		splitter.end();
		onEnd?.();
	};
	stream.on("data", onData);
	stream.on("end", finish);
	stream.on("close", finish);
	return () => {
		stream.off("data", onData);
		stream.off("end", finish);
		stream.off("close", finish);
	};
}

/** One record: `JSON.stringify` (no raw LF, `undefined` properties omitted) plus LF. */
export function serializeJsonLine(value: unknown): string {
	return `${JSON.stringify(value)}\n`;
}
