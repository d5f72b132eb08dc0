import { closeSync, writeSync } from "node:fs";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateTail } from "../truncate.js";
import { createOutputFile } from "./output-file.js";

/** What the model is shown of a command's output so far. */
export interface OutputSnapshot {
	/** Tail-truncated text; totals are the exact counts of the whole output. */
	truncation: TruncationResult;
	/** Set once the output overflowed the limits and the full output went to a file. */
	fullOutputPath?: string;
	/** UTF-8 size of the last line (named when only its end is shown). */
	lastLineBytes: number;
}

/** Keeps the last `limit` raw bytes of a stream. */
class ByteTail {
	private chunks: Buffer[] = [];
	private size = 0;
	constructor(private readonly limit: number) {}
	push(chunk: Buffer): void {
		this.chunks.push(chunk);
		this.size += chunk.length;
		while (this.chunks.length > 1 && this.size - (this.chunks[0]?.length ?? 0) >= this.limit) {
			this.size -= this.chunks.shift()?.length ?? 0;
		}
	}
	bytes(): Buffer {
		const all = Buffer.concat(this.chunks);
		return all.subarray(Math.max(0, all.length - this.limit));
	}
}

/** Moves `index` forward past UTF-8 continuation bytes so a cut starts on a character. */
function characterStart(bytes: Buffer, index: number): number {
	let i = index;
	while (i < bytes.length && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
	return i;
}

/**
 * Bounded-memory accumulator for shell output (docs/design/tools.md#output-accumulator): exact line/byte totals, a rolling
 * decoded tail for the model, the raw head/tail for programmatic callers, and a temp file that
 * receives every raw byte once the output no longer fits the limits.
 */
export class OutputAccumulator {
	private readonly decoder = new TextDecoder("utf-8");
	private tail = "";
	private tailAtLineStart = true;
	private totalBytes = 0;
	private decodedBytes = 0;
	private newlines = 0;
	private endsWithNewline = true;
	private openLineBytes = 0;
	private closedLineBytes = 0;
	private pending: Buffer[] = [];
	private file: { path: string; fd: number } | undefined;
	private readonly head: Buffer[] = [];
	private headBytes = 0;
	private readonly rawTail: ByteTail;

	constructor(
		private readonly filePrefix: string,
		private readonly fullOutputLimit = 1024 * 1024,
		private readonly maxLines = DEFAULT_MAX_LINES,
		private readonly maxBytes = DEFAULT_MAX_BYTES,
	) {
		this.rawTail = new ByteTail(fullOutputLimit / 2);
	}

	append(chunk: Buffer): void {
		if (chunk.length === 0) return;
		this.totalBytes += chunk.length;
		this.keepRaw(chunk);
		this.addDecoded(this.decoder.decode(chunk, { stream: true }));
		if (this.file) writeSync(this.file.fd, chunk);
		else {
			this.pending.push(chunk);
			if (this.overflowed()) this.openFile();
		}
	}

	/** Flushes the decoder and closes the output file; call once the command finished. */
	finish(): void {
		this.addDecoded(this.decoder.decode());
		if (!this.file && this.overflowed()) this.openFile();
		if (this.file) closeSync(this.file.fd);
		this.pending = [];
	}

	get lineCount(): number {
		return this.newlines + (this.endsWithNewline ? 0 : 1);
	}

	private overflowed(): boolean {
		return this.totalBytes > this.maxBytes || this.decodedBytes > this.maxBytes || this.lineCount > this.maxLines;
	}

	private openFile(): void {
		this.file = createOutputFile(this.filePrefix);
		for (const chunk of this.pending) writeSync(this.file.fd, chunk);
		this.pending = [];
	}

	private keepRaw(chunk: Buffer): void {
		if (this.headBytes < this.fullOutputLimit) {
			const room = this.fullOutputLimit - this.headBytes;
			const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
			this.head.push(part);
			this.headBytes += part.length;
		}
		this.rawTail.push(chunk);
	}

	private addDecoded(text: string): void {
		if (text === "") return;
		this.decodedBytes += Buffer.byteLength(text, "utf8");
		let lineStart = 0;
		for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
			this.newlines++;
			this.closedLineBytes = this.openLineBytes + Buffer.byteLength(text.slice(lineStart, i), "utf8");
			this.openLineBytes = 0;
			lineStart = i + 1;
		}
		this.openLineBytes +=
			lineStart === 0 ? Buffer.byteLength(text, "utf8") : Buffer.byteLength(text.slice(lineStart), "utf8");
		this.endsWithNewline = text.endsWith("\n");
		this.tail += text;
		// Trim the rolling tail to 2× the byte cap once it reaches 4× (characters ≥ bytes/4 bound).
		if (this.tail.length > 4 * this.maxBytes) {
			let cut = this.tail.length - 2 * this.maxBytes;
			const code = this.tail.charCodeAt(cut);
			if (code >= 0xdc00 && code <= 0xdfff) cut++;
			this.tailAtLineStart = this.tail[cut - 1] === "\n";
			this.tail = this.tail.slice(cut);
		}
	}

	snapshot(): OutputSnapshot {
		let text = this.tail;
		if (!this.tailAtLineStart) {
			// The first tail line is partial: drop it unless it is all there is.
			const newline = text.indexOf("\n");
			if (newline !== -1 && newline < text.length - 1) text = text.slice(newline + 1);
		}
		const truncation = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		truncation.totalLines = this.lineCount;
		truncation.totalBytes = this.decodedBytes;
		if (truncation.totalLines > this.maxLines || truncation.totalBytes > this.maxBytes) {
			truncation.truncated = true;
			truncation.truncatedBy ??= truncation.outputLines >= this.maxLines ? "lines" : "bytes";
		}
		const lastLineBytes = this.endsWithNewline ? this.closedLineBytes : this.openLineBytes;
		return this.file ? { truncation, fullOutputPath: this.file.path, lastLineBytes } : { truncation, lastLineBytes };
	}

	/** The whole output, or beyond `fullOutputLimit` its head and tail halves around an omission marker. */
	readFullOutput(): { output: string; truncated: boolean } {
		const head = Buffer.concat(this.head);
		if (this.totalBytes <= this.fullOutputLimit) return { output: head.toString("utf8"), truncated: false };
		const half = this.fullOutputLimit / 2;
		let headEnd = half;
		while (headEnd > 0 && ((head[headEnd] ?? 0) & 0xc0) === 0x80) headEnd--;
		const tail = this.rawTail.bytes();
		const tailStart = characterStart(tail, 0);
		const omitted = this.totalBytes - headEnd - (tail.length - tailStart);
		const output = `${head.subarray(0, headEnd).toString("utf8")}\n[... ${omitted} bytes omitted ...]\n${tail.subarray(tailStart).toString("utf8")}`;
		return { output, truncated: true };
	}
}
