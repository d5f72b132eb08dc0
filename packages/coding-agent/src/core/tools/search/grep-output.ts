import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateLine } from "../truncate.js";

/** One line of grep output, produced by ripgrep's JSON events or the built-in search. */
export interface GrepLine {
	kind: "match" | "context";
	path: string;
	lineNumber: number;
	text: string;
}

/**
 * The `details` of a grep tool result: how the output was truncated, whether the match limit was reached and
 * whether long lines were cut.
 */
export interface GrepToolDetails {
	truncation?: TruncationResult;
	matchLimitReached?: number;
	linesTruncated?: boolean;
}

/**
 * Collects grep lines under the match limit and the 50KB output cap (docs/design/tools.md#grep): after the
 * N-th match its trailing context is still taken (a match inside it is shown as context, as Pi
 * does), and only a further match proves the limit hit.
 */
export class GrepCollector {
	private readonly lines: string[] = [];
	private bytes = 0;
	private totalLines = 0;
	private totalBytes = 0;
	private matches = 0;
	private linesTruncated = false;
	private limitReached = false;
	private storing = true;
	private lastMatch: { path: string; lineNumber: number } | undefined;

	constructor(
		readonly limit: number,
		private readonly contextLines: number,
	) {}

	/** The last line of the trailing context of the last match, in its file. */
	private trailingEnd(line: GrepLine): number | undefined {
		const last = this.lastMatch;
		return last !== undefined && line.path === last.path ? last.lineNumber + this.contextLines : undefined;
	}

	/** Returns false once nothing more is wanted: the producer should stop. */
	add(line: GrepLine): boolean {
		if (this.matches >= this.limit) return this.addAfterLimit(line);
		if (line.kind === "match") {
			this.matches++;
			this.lastMatch = { path: line.path, lineNumber: line.lineNumber };
		}
		this.store(line);
		return true;
	}

	/** Past the limit: lines of the last match's trailing context are kept, all as context lines. */
	private addAfterLimit(line: GrepLine): boolean {
		const end = this.trailingEnd(line);
		const inWindow = end !== undefined && line.lineNumber <= end;
		if (inWindow) this.store({ ...line, kind: "context" });
		if (line.kind === "match") this.limitReached = true;
		return !this.limitReached || (inWindow && line.lineNumber < end);
	}

	private store(line: GrepLine): void {
		const { text, wasTruncated } = truncateLine(line.text);
		if (wasTruncated) this.linesTruncated = true;
		const separator = line.kind === "match" ? ":" : "-";
		const rendered = `${line.path}${separator}${line.lineNumber}${separator} ${text}`;
		const size = Buffer.byteLength(rendered, "utf8") + (this.totalLines > 0 ? 1 : 0);
		this.totalLines++;
		this.totalBytes += size;
		if (this.storing && this.bytes + size <= DEFAULT_MAX_BYTES) {
			this.lines.push(rendered);
			this.bytes += size;
		} else this.storing = false;
	}

	get matchCount(): number {
		return this.matches;
	}

	/** The tool result text and details; `undefined` details when nothing was limited. */
	render(extraNotice?: string): { text: string; details: GrepToolDetails | undefined } {
		if (this.totalLines === 0) return { text: "No matches found", details: undefined };
		const details: GrepToolDetails = {};
		const notices: string[] = [];
		if (this.limitReached) {
			notices.push(`${this.limit} matches limit reached. Use limit=${this.limit * 2} for more, or refine pattern`);
			details.matchLimitReached = this.limit;
		}
		if (this.lines.length < this.totalLines) {
			notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
			details.truncation = {
				content: this.lines.join("\n"),
				truncated: true,
				truncatedBy: "bytes",
				totalLines: this.totalLines,
				totalBytes: this.totalBytes,
				outputLines: this.lines.length,
				outputBytes: this.bytes,
				lastLinePartial: false,
				firstLineExceedsLimit: this.lines.length === 0,
				maxLines: Number.MAX_SAFE_INTEGER,
				maxBytes: DEFAULT_MAX_BYTES,
			};
		}
		if (this.linesTruncated) {
			notices.push("Some lines truncated to 500 chars. Use read tool to see full lines");
			details.linesTruncated = true;
		}
		if (extraNotice) notices.push(extraNotice);
		let text = this.lines.join("\n");
		if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
		return { text, details: Object.keys(details).length > 0 ? details : undefined };
	}
}
