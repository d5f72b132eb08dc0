import { EventEmitter } from "node:events";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const DEFAULT_FLUSH_MS = 50;
/** Replies whose terminator is awaited without timeout (slow links must not split them into keys). */
const REPLY_HEADERS = ["\x1b]10;", "\x1b]11;", "\x1b]4;", "\x1b]7501;?", "\x1bP>|", "\x1b_G"];
const CSI_U_PRINTABLE = /^\x1b\[(\d+)u$/;

type Scan = { complete: number } | { incomplete: true } | { drop: number };

function scanString(buf: string, start: number, allowBel: boolean): Scan {
	for (let j = start; j < buf.length; j++) {
		const ch = buf[j];
		if (ch === "\x07" && allowBel) return { complete: j + 1 };
		if (ch === "\x1b") {
			if (j + 1 >= buf.length) return { incomplete: true };
			if (buf[j + 1] === "\\") return { complete: j + 2 };
			return { drop: j };
		}
		if (ch === "\x18" || ch === "\x1a") return { drop: j + 1 };
	}
	return { incomplete: true };
}

/** Length of the escape sequence at the start of `buf` (which starts with ESC). */
function scanEscape(buf: string): Scan {
	if (buf.length < 2) return { incomplete: true };
	const kind = buf[1]!;
	if (kind === "\x1b") {
		if (buf.length < 3) return { incomplete: true };
		// WezTerm sends the Escape press raw followed by a sequence: split off the lone ESC.
		return "[]OP_".includes(buf[2]!) ? { complete: 1 } : { complete: 2 };
	}
	if (kind === "[") {
		if (buf.length < 3) return { incomplete: true };
		if (buf[2] === "M") return buf.length >= 6 ? { complete: 6 } : { incomplete: true };
		if (buf[2] === "[") return buf.length >= 4 ? { complete: 4 } : { incomplete: true };
		for (let j = 2; j < buf.length; j++) {
			const c = buf.charCodeAt(j);
			if (c >= 0x40 && c <= 0x7e) return { complete: j + 1 };
			if (c < 0x20 || c > 0x7e) return { complete: j };
		}
		return { incomplete: true };
	}
	if (kind === "]" || kind === "_") return scanString(buf, 2, true);
	if (kind === "P") return scanString(buf, 2, false);
	if (kind === "O") return buf.length >= 3 ? { complete: 3 } : { incomplete: true };
	const cp = buf.codePointAt(1)!;
	return { complete: 1 + (cp > 0xffff ? 2 : 1) };
}

/** Options of `StdinBuffer`. */
export interface StdinBufferOptions {
	/** How long a lone ESC waits for the rest of a sequence before it is the Escape key. */
	escapeTimeout?: number;
}

/**
 * Splits raw stdin chunks into complete input sequences. Emits `data` (one sequence) and
 * `paste` (the content of one bracketed paste).
 */
export class StdinBuffer extends EventEmitter<{ data: [string]; paste: [string] }> {
	private buffer = "";
	private pasting = false;
	private pasteContent = "";
	private timer: ReturnType<typeof setTimeout> | undefined;
	private lastEmitted = "";
	private readonly escapeTimeout: number;

	constructor(options: StdinBufferOptions = {}) {
		super();
		this.escapeTimeout = options.escapeTimeout ?? 10;
	}

	process(chunk: string | Buffer): void {
		let text: string;
		if (typeof chunk !== "string") {
			// Legacy meta encoding: a single high byte means Alt + (byte - 128).
			text =
				chunk.length === 1 && chunk[0]! > 127
					? `\x1b${String.fromCharCode(chunk[0]! - 128)}`
					: chunk.toString("utf8");
		} else text = chunk;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.buffer += text;
		this.parse();
	}

	/** Emits whatever is buffered as if its timeout had expired. */
	flush(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		if (this.buffer.length === 0 || this.pasting) return;
		const pending = this.buffer;
		if (pending.length <= 2) {
			this.buffer = "";
			this.emitSequence(pending);
			return;
		}
		// An unterminated control string was really Alt + its first character, followed by text.
		this.buffer = pending.slice(2);
		this.emitSequence(pending.slice(0, 2));
		this.parse();
	}

	destroy(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.buffer = "";
		this.pasting = false;
		this.pasteContent = "";
		this.removeAllListeners();
	}

	private emitSequence(seq: string): void {
		const previous = this.lastEmitted;
		this.lastEmitted = seq;
		// Kitty may report a printable key as CSI-u and then also as text: drop the duplicate.
		const m = CSI_U_PRINTABLE.exec(previous);
		if (m && seq.length <= 2 && String.fromCodePoint(Number(m[1])) === seq) return;
		this.emit("data", seq);
	}

	private parse(): void {
		while (this.buffer.length > 0) {
			if (this.pasting) {
				const end = this.buffer.indexOf(PASTE_END);
				if (end < 0) {
					// Keep a possible partial end marker for the next chunk.
					let keep = 0;
					for (let k = Math.min(PASTE_END.length - 1, this.buffer.length); k > 0; k--) {
						if (PASTE_END.startsWith(this.buffer.slice(-k))) {
							keep = k;
							break;
						}
					}
					this.pasteContent += this.buffer.slice(0, this.buffer.length - keep);
					this.buffer = this.buffer.slice(this.buffer.length - keep);
					return;
				}
				this.pasteContent += this.buffer.slice(0, end);
				this.buffer = this.buffer.slice(end + PASTE_END.length);
				this.pasting = false;
				const content = this.pasteContent;
				this.pasteContent = "";
				this.lastEmitted = "";
				this.emit("paste", content);
				continue;
			}
			if (this.buffer.startsWith(PASTE_START)) {
				this.pasting = true;
				this.buffer = this.buffer.slice(PASTE_START.length);
				continue;
			}
			if (this.buffer[0] !== "\x1b") {
				const cp = this.buffer.codePointAt(0)!;
				const len = cp > 0xffff ? 2 : 1;
				const ch = this.buffer.slice(0, len);
				this.buffer = this.buffer.slice(len);
				this.emitSequence(ch);
				continue;
			}
			if (PASTE_START.startsWith(this.buffer)) {
				this.armTimer();
				return;
			}
			const scan = scanEscape(this.buffer);
			if ("complete" in scan) {
				const seq = this.buffer.slice(0, scan.complete);
				this.buffer = this.buffer.slice(scan.complete);
				this.emitSequence(seq);
				continue;
			}
			if ("drop" in scan) {
				this.buffer = this.buffer.slice(scan.drop);
				continue;
			}
			if (!REPLY_HEADERS.some((h) => this.buffer.startsWith(h))) this.armTimer();
			return;
		}
	}

	private armTimer(): void {
		const delay = this.buffer === "\x1b" ? this.escapeTimeout : DEFAULT_FLUSH_MS;
		this.timer = setTimeout(() => this.flush(), delay);
	}
}
