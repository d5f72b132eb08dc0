/** Recognition of the terminal escape sequences that occupy no columns. */

const ESC = "\x1b";
const BEL = "\x07";

/**
 * Length of the escape sequence starting at `i`, or 0 when none starts there.
 * CSI ends at its final byte, OSC and APC at BEL or ST; an unterminated string runs to the end.
 */
export function escapeLength(s: string, i: number): number {
	if (s.charCodeAt(i) !== 0x1b) return 0;
	const kind = s[i + 1];
	if (kind === "[") {
		for (let j = i + 2; j < s.length; j++) {
			const c = s.charCodeAt(j);
			if (c >= 0x40 && c <= 0x7e) return j - i + 1;
		}
		return s.length - i;
	}
	if (kind === "]" || kind === "_" || kind === "P") {
		for (let j = i + 2; j < s.length; j++) {
			const ch = s[j];
			if (ch === BEL) return j - i + 1;
			if (ch === ESC && s[j + 1] === "\\") return j - i + 2;
		}
		return s.length - i;
	}
	return 0;
}

export function isApc(seq: string): boolean {
	return seq.startsWith("\x1b_");
}

/** Splits a string into alternating escape sequences and visible text runs. */
export function splitAnsi(s: string): { escape: boolean; text: string }[] {
	const parts: { escape: boolean; text: string }[] = [];
	let textStart = 0;
	let i = 0;
	while (i < s.length) {
		const len = s.charCodeAt(i) === 0x1b ? escapeLength(s, i) : 0;
		if (len > 0) {
			if (i > textStart) parts.push({ escape: false, text: s.slice(textStart, i) });
			parts.push({ escape: true, text: s.slice(i, i + len) });
			i += len;
			textStart = i;
		} else {
			i++;
		}
	}
	if (textStart < s.length) parts.push({ escape: false, text: s.slice(textStart) });
	return parts;
}

/** Text without any escape sequences (styles, hyperlinks, cursor markers), as it appears on screen. */
export function stripTerminalSequences(s: string): string {
	if (!s.includes(ESC)) return s;
	let out = "";
	for (const part of splitAnsi(s)) if (!part.escape) out += part.text;
	return out;
}

/** Replaces each run of C0/C1 control characters with one space. */
export function replaceControlCharacters(s: string): string {
	return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

/** OSC 8 hyperlink: `url` empty closes the link. Controls in the URL are dropped: they would end the sequence. */
export function hyperlink(text: string, url: string): string {
	const safeUrl = url.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
	return `\x1b]8;;${safeUrl}\x1b\\${text}\x1b]8;;\x1b\\`;
}

/**
 * The URL an OSC 8 sequence (`ESC ] 8 ; params ; url ST`) opens, "" for a close, or undefined when `seq`
 * is not a well-formed OSC 8 sequence.
 */
export function osc8Url(seq: string): string | undefined {
	if (!seq.startsWith("\x1b]8;")) return undefined;
	const body = seq.endsWith(BEL) ? seq.slice(4, -1) : seq.slice(4, -2);
	const sep = body.indexOf(";");
	return sep < 0 ? undefined : body.slice(sep + 1);
}

/** The terminator (BEL or ST) an OSC sequence used, so a re-opened link keeps it. */
export function oscTerminator(seq: string): string {
	return seq.endsWith(BEL) ? BEL : "\x1b\\";
}
