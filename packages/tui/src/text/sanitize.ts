/**
 * The one filter for text a component shows but did not produce: tool output, model text, file and
 * session names, extension strings, error messages (docs/security.md). Such text must never drive
 * the terminal: no clipboard writes (OSC 52), no title changes (OSC 0/2), no cursor movement or
 * screen clearing, no hyperlinks that tau did not make.
 *
 * - Escape sequences (CSI, OSC, DCS, APC, PM, SOS, other ESC sequences, and their 8-bit C1 forms)
 *   are removed whole, payload included. With `keepStyle`, SGR (colour and style) stays.
 * - Other control characters become visible: CRLF is a line break, a lone CR starts a new line (so
 *   nothing can be overwritten and hidden), other C0 controls and DEL show as control pictures
 *   (U+2400 block), leftover C1 controls are dropped. Newline and tab pass unchanged.
 */
export interface SanitizeOptions {
	/** Keep SGR colour and style sequences: for output a component deliberately shows in colour (bash). */
	keepStyle?: boolean;
}

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const ESC = 0x1b;
const BEL = 0x07;
/** 8-bit introducers and terminator, as decoded code points. */
const C1_DCS = 0x90;
const C1_SOS = 0x98;
const C1_CSI = 0x9b;
const C1_ST = 0x9c;
const C1_OSC = 0x9d;
const C1_PM = 0x9e;
const C1_APC = 0x9f;

/** Returns `text` with every terminal control removed or made visible (see the module comment). */
export function sanitizeTerminalText(text: string, options: SanitizeOptions = {}): string {
	if (!UNSAFE.test(text)) return text;
	const keepStyle = options.keepStyle === true;
	let out = "";
	let i = 0;
	while (i < text.length) {
		const c = text.charCodeAt(i);
		if (c === ESC) {
			const end = escapeEnd(text, i + 1);
			if (keepStyle && isSgr(text, i, end)) out += text.slice(i, end);
			i = end;
		} else if (c === C1_CSI) {
			i = csiEnd(text, i + 1);
		} else if (c === C1_OSC || c === C1_DCS || c === C1_SOS || c === C1_PM || c === C1_APC) {
			i = stringEnd(text, i + 1);
		} else if (c === 0x0d) {
			out += "\n";
			i += text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
		} else if (c === 0x09 || c === 0x0a || (c >= 0x20 && c < 0x7f) || c > 0x9f) {
			out += text[i];
			i++;
		} else {
			// C0 and DEL as control pictures; stray C1 controls have no picture and are dropped.
			if (c < 0x20) out += String.fromCharCode(0x2400 + c);
			else if (c === 0x7f) out += "\u2421";
			i++;
		}
	}
	return out;
}

/** Index after the escape sequence whose ESC precedes `i` (unterminated or malformed ones end early). */
function escapeEnd(text: string, i: number): number {
	const kind = text.charCodeAt(i);
	if (kind === 0x5b /* [ */) return csiEnd(text, i + 1);
	// OSC ], DCS P, SOS X, PM ^, APC _
	if (kind === 0x5d || kind === 0x50 || kind === 0x58 || kind === 0x5e || kind === 0x5f) return stringEnd(text, i + 1);
	let j = i;
	// nF sequences: intermediates, then one final byte (ESC ( 0, ESC # 8, ...); Fp/Fe/Fs: one byte (ESC c, ESC 7).
	while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
	const final = text.charCodeAt(j);
	if (final >= 0x30 && final <= 0x7e) return j + 1;
	// A lone ESC (or one followed by a control or non-ASCII character) is dropped by itself.
	return j;
}

/** Index after a CSI body starting at `i`: parameters, intermediates, final byte; stops at anything else. */
function csiEnd(text: string, i: number): number {
	let j = i;
	while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j++;
	while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
	const final = text.charCodeAt(j);
	return final >= 0x40 && final <= 0x7e ? j + 1 : j;
}

/**
 * Index after a control string (OSC, DCS, APC, PM, SOS) starting at `i`: it ends at BEL, ST (ESC \
 * or 8-bit), or, when unterminated, at the end of the line, so a broken sequence cannot swallow the
 * rest of the text.
 */
function stringEnd(text: string, i: number): number {
	for (let j = i; j < text.length; j++) {
		const c = text.charCodeAt(j);
		if (c === BEL || c === C1_ST) return j + 1;
		if (c === ESC && text.charCodeAt(j + 1) === 0x5c /* \ */) return j + 2;
		if (c === 0x0a || c === 0x0d) return j;
	}
	return text.length;
}

/** `ESC [ <digits ; :> m` exactly: colour and style, nothing else. */
function isSgr(text: string, start: number, end: number): boolean {
	if (end - start < 3 || text.charCodeAt(start + 1) !== 0x5b || text.charCodeAt(end - 1) !== 0x6d) return false;
	for (let j = start + 2; j < end - 1; j++) {
		const c = text.charCodeAt(j);
		if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a)) return false;
	}
	return true;
}
