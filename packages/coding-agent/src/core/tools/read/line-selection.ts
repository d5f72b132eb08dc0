import { isAscii } from "node:buffer";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateHead } from "../truncate.js";
import { ABORTED_MESSAGE } from "../types.js";

/** The lines a read shows, the head truncation applied to them, and the file's segment count. */
export interface ReadSelection {
	truncation: TruncationResult;
	/** Number of `\n`-separated segments in the file (a trailing newline yields a final empty one). */
	totalFileLines: number;
	/** UTF-8 size of the first selected line (named in the oversized-line notice). */
	firstLineBytes: number;
}

/** Whole-file path: decode, split, slice `[startLine, startLine + limit)`, head-truncate. */
export function selectFromText(text: string, startLine: number, limit: number | undefined): ReadSelection {
	const lines = text.split("\n");
	const selected = limit === undefined ? lines.slice(startLine) : lines.slice(startLine, startLine + limit);
	return {
		truncation: truncateHead(selected.join("\n")),
		totalFileLines: lines.length,
		firstLineBytes: Buffer.byteLength(selected[0] ?? "", "utf8"),
	};
}

/**
 * Streaming path: consumes a byte stream line by line, storing only the lines that can be shown
 * (a line is never buffered beyond the byte cap) and counting the rest, so a huge file costs
 * bounded memory. Produces exactly what `selectFromText` would for the same bytes.
 */
class StreamingLineSelector {
	private readonly maxLines = DEFAULT_MAX_LINES;
	private readonly maxBytes = DEFAULT_MAX_BYTES;
	private readonly selectionEnd: number;
	private lineIndex = 0;
	private lineBytes = 0;
	private lineParts: string[] | null = [];
	private selectedCount = 0;
	private selectedBytes = 0;
	private lastSelectedEmpty = false;
	private firstLineBytes = 0;
	private readonly stored: string[] = [];
	private storedBytes = 0;
	private storing = true;
	private rejectedAt = -1;

	constructor(
		private readonly startLine: number,
		limit: number | undefined,
	) {
		this.selectionEnd = limit === undefined ? Number.POSITIVE_INFINITY : startLine + limit;
	}

	private get inSelection(): boolean {
		return this.lineIndex >= this.startLine && this.lineIndex < this.selectionEnd;
	}

	/** Appends `bytes` of the current line; `text` is only materialised while the line may be shown. */
	private append(bytes: number, text: () => string): void {
		if (!this.inSelection || bytes === 0) return;
		this.lineBytes += bytes;
		if (this.lineParts === null) return;
		const separator = this.stored.length > 0 ? 1 : 0;
		if (this.storing && this.storedBytes + separator + this.lineBytes <= this.maxBytes) this.lineParts.push(text());
		else this.lineParts = null;
	}

	private endLine(): void {
		if (this.inSelection) {
			this.selectedCount++;
			this.selectedBytes += this.lineBytes + (this.selectedCount > 1 ? 1 : 0);
			this.lastSelectedEmpty = this.lineBytes === 0;
			if (this.selectedCount === 1) this.firstLineBytes = this.lineBytes;
			if (this.storing) {
				if (this.stored.length >= this.maxLines || this.lineParts === null) {
					this.storing = false;
					this.rejectedAt = this.selectedCount - 1;
				} else {
					this.storedBytes += this.lineBytes + (this.stored.length > 0 ? 1 : 0);
					this.stored.push(this.lineParts.join(""));
				}
			}
		}
		this.lineIndex++;
		this.lineBytes = 0;
		this.lineParts = [];
	}

	feedText(text: string): void {
		let position = 0;
		for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", position)) {
			const piece = text.slice(position, newline);
			this.append(Buffer.byteLength(piece, "utf8"), () => piece);
			this.endLine();
			position = newline + 1;
		}
		const rest = text.slice(position);
		this.append(Buffer.byteLength(rest, "utf8"), () => rest);
	}

	/** ASCII chunks skip decoding: bytes and characters coincide. */
	feedAscii(chunk: Buffer): void {
		let position = 0;
		for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, position)) {
			const start = position;
			this.append(newline - start, () => chunk.toString("latin1", start, newline));
			this.endLine();
			position = newline + 1;
		}
		const start = position;
		this.append(chunk.length - start, () => chunk.toString("latin1", start));
	}

	finish(): ReadSelection {
		this.endLine();
		const totalFileLines = this.lineIndex;
		const firstLineBytes = this.firstLineBytes;
		const totalLines = this.selectedCount - (this.lastSelectedEmpty ? 1 : 0);
		const base = {
			totalLines,
			totalBytes: this.selectedBytes,
			lastLinePartial: false,
			maxLines: this.maxLines,
			maxBytes: this.maxBytes,
		};
		if (totalLines <= this.maxLines && this.selectedBytes <= this.maxBytes) {
			// Only a trailing empty segment can be left unstored here; it stands for the final newline.
			const content = this.stored.join("\n") + (this.stored.length < this.selectedCount ? "\n" : "");
			const truncation: TruncationResult = {
				...base,
				content,
				truncated: false,
				truncatedBy: null,
				outputLines: totalLines,
				outputBytes: this.selectedBytes,
				firstLineExceedsLimit: false,
			};
			return { truncation, totalFileLines, firstLineBytes };
		}
		if (firstLineBytes > this.maxBytes) {
			const truncation: TruncationResult = {
				...base,
				content: "",
				truncated: true,
				truncatedBy: "bytes",
				outputLines: 0,
				outputBytes: 0,
				firstLineExceedsLimit: true,
			};
			return { truncation, totalFileLines, firstLineBytes };
		}
		const kept = this.stored.slice(0, totalLines);
		const rejectedRealLine = this.rejectedAt !== -1 && this.rejectedAt < totalLines;
		const byLines = kept.length >= this.maxLines || !rejectedRealLine;
		const outputBytes =
			kept.reduce((sum, line) => sum + Buffer.byteLength(line, "utf8"), 0) + Math.max(0, kept.length - 1);
		const truncation: TruncationResult = {
			...base,
			content: kept.join("\n"),
			truncated: true,
			truncatedBy: byLines ? "lines" : "bytes",
			outputLines: kept.length,
			outputBytes,
			firstLineExceedsLimit: false,
		};
		return { truncation, totalFileLines, firstLineBytes };
	}
}

/** Streams `chunks` through a `StreamingLineSelector`; rejects `Operation aborted` on abort. */
export async function selectFromStream(
	chunks: AsyncIterable<Uint8Array>,
	startLine: number,
	limit: number | undefined,
	signal: AbortSignal | undefined,
): Promise<ReadSelection> {
	const selector = new StreamingLineSelector(startLine, limit);
	// The BOM stays a character, as in the whole-file path.
	const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
	let decoderPending = false;
	for await (const raw of chunks) {
		if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
		const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
		if (isAscii(chunk)) {
			// Flushing first emits what a pending partial sequence decodes to before ASCII (U+FFFD).
			if (decoderPending) selector.feedText(decoder.decode());
			decoderPending = false;
			selector.feedAscii(chunk);
		} else {
			selector.feedText(decoder.decode(chunk, { stream: true }));
			decoderPending = true;
		}
	}
	if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
	if (decoderPending) selector.feedText(decoder.decode());
	return selector.finish();
}
