/** Shared output limits of the built-in tools (whichever limit is hit first wins). */
export const DEFAULT_MAX_LINES = 2000;
/** Default byte limit of tool output before it is truncated (50 KB). */
export const DEFAULT_MAX_BYTES = 50 * 1024;
export const GREP_MAX_LINE_LENGTH = 500;

/** Limits for truncating tool output: maximum lines and maximum bytes. */
export interface TruncationOptions {
	maxLines?: number;
	maxBytes?: number;
}

/** Truncated text and what was cut: whether and by which limit, line and byte counts before and after. */
export interface TruncationResult {
	content: string;
	truncated: boolean;
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	lastLinePartial: boolean;
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

/** Renders a byte count the way truncation notices show it: `512B`, `50.0KB`, `1.5MB`. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** Splits into lines; a trailing newline does not start an extra line and "" has no lines. */
function splitLines(content: string): string[] {
	if (content === "") return [];
	const lines = content.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

function untruncated(
	content: string,
	lines: number,
	bytes: number,
	maxLines: number,
	maxBytes: number,
): TruncationResult {
	return {
		content,
		truncated: false,
		truncatedBy: null,
		totalLines: lines,
		totalBytes: bytes,
		outputLines: lines,
		outputBytes: bytes,
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines,
		maxBytes,
	};
}

/** Keeps whole lines from the start (files, search results). Never returns a partial line. */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = Buffer.byteLength(content, "utf8");
	const lines = splitLines(content);
	if (lines.length <= maxLines && totalBytes <= maxBytes) {
		return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);
	}
	const base = { truncated: true, totalLines: lines.length, totalBytes, lastLinePartial: false, maxLines, maxBytes };
	if (Buffer.byteLength(lines[0] ?? "", "utf8") > maxBytes) {
		return {
			...base,
			content: "",
			truncatedBy: "bytes",
			outputLines: 0,
			outputBytes: 0,
			firstLineExceedsLimit: true,
		};
	}
	const kept: string[] = [];
	let bytes = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	for (const line of lines) {
		if (kept.length >= maxLines) break;
		const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
		if (bytes + size > maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		kept.push(line);
		bytes += size;
	}
	return {
		...base,
		content: kept.join("\n"),
		truncatedBy,
		outputLines: kept.length,
		outputBytes: bytes,
		firstLineExceedsLimit: false,
	};
}

/** The last `maxBytes` bytes of `text`, starting at a UTF-8 character boundary. */
function utf8Tail(text: string, maxBytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	let start = Math.max(0, buffer.length - maxBytes);
	// Continuation bytes look like 10xxxxxx; skip them so the cut lands on a character start.
	while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
	return buffer.subarray(start).toString("utf8");
}

/** Keeps whole lines from the end (logs, command output); a single oversized last line keeps its end. */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = Buffer.byteLength(content, "utf8");
	const lines = splitLines(content);
	if (lines.length <= maxLines && totalBytes <= maxBytes) {
		return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);
	}
	const base = {
		truncated: true,
		totalLines: lines.length,
		totalBytes,
		firstLineExceedsLimit: false,
		maxLines,
		maxBytes,
	};
	const last = lines[lines.length - 1] ?? "";
	if (Buffer.byteLength(last, "utf8") > maxBytes) {
		const partial = utf8Tail(last, maxBytes);
		return {
			...base,
			content: partial,
			truncatedBy: "bytes",
			outputLines: 1,
			outputBytes: Buffer.byteLength(partial, "utf8"),
			lastLinePartial: true,
		};
	}
	const kept: string[] = [];
	let bytes = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	for (let i = lines.length - 1; i >= 0; i--) {
		if (kept.length >= maxLines) break;
		const line = lines[i] ?? "";
		const size = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
		if (bytes + size > maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		kept.push(line);
		bytes += size;
	}
	kept.reverse();
	return {
		...base,
		content: kept.join("\n"),
		truncatedBy,
		outputLines: kept.length,
		outputBytes: bytes,
		lastLinePartial: false,
	};
}

/** Cuts one line to `maxChars` UTF-16 units without splitting a surrogate pair. */
export function truncateLine(
	line: string,
	maxChars: number = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	let end = maxChars;
	const code = line.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return { text: `${line.slice(0, end)}... [truncated]`, wasTruncated: true };
}
