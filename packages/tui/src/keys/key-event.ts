/** Decoding of terminal input into (key, modifiers) candidates. */
import { isKittyProtocolActive } from "./kitty-state.js";

export const MOD_SHIFT = 1;
export const MOD_ALT = 2;
export const MOD_CTRL = 4;
export const MOD_SUPER = 8;
const LOCK_BITS = 64 | 128;

/** One way of reading an input sequence as a key press. */
export interface KeyCandidate {
	key: string;
	mods: number;
}

export interface DecodedKey {
	candidates: KeyCandidate[];
	/** 1 press, 2 repeat, 3 release. */
	event: number;
	/** Set for CSI-u / modifyOtherKeys reports of a printable key. */
	printable?: { code: number; shifted?: number; mods: number };
}

const SPECIAL_CODES: Record<number, string> = {
	9: "tab",
	13: "enter",
	27: "escape",
	32: "space",
	127: "backspace",
	57414: "enter",
};

const KEYPAD: Record<number, string> = {
	57399: "0",
	57400: "1",
	57401: "2",
	57402: "3",
	57403: "4",
	57404: "5",
	57405: "6",
	57406: "7",
	57407: "8",
	57408: "9",
	57409: ".",
	57410: "/",
	57411: "*",
	57412: "-",
	57413: "+",
	57415: "=",
	57416: ",",
	57417: "left",
	57418: "right",
	57419: "up",
	57420: "down",
	57421: "pageUp",
	57422: "pageDown",
	57423: "home",
	57424: "end",
	57425: "insert",
	57426: "delete",
};

const TILDE: Record<number, string> = {
	1: "home",
	2: "insert",
	3: "delete",
	4: "end",
	5: "pageUp",
	6: "pageDown",
	7: "home",
	8: "end",
	11: "f1",
	12: "f2",
	13: "f3",
	14: "f4",
	15: "f5",
	17: "f6",
	18: "f7",
	19: "f8",
	20: "f9",
	21: "f10",
	23: "f11",
	24: "f12",
};

const LETTER_FINAL: Record<string, string> = {
	A: "up",
	B: "down",
	C: "right",
	D: "left",
	H: "home",
	F: "end",
	E: "clear",
	P: "f1",
	Q: "f2",
	R: "f3",
	S: "f4",
};

export const SYMBOL_KEYS = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?";

function isLatinOrSymbol(ch: string): boolean {
	return /^[a-z0-9]$/.test(ch) || SYMBOL_KEYS.includes(ch);
}

function codeKey(code: number): string | undefined {
	if (SPECIAL_CODES[code]) return SPECIAL_CODES[code];
	if (KEYPAD[code]) return KEYPAD[code];
	if (code >= 57344 && code <= 63743) return undefined;
	if (code < 32) return undefined;
	return String.fromCodePoint(code).toLowerCase();
}

function modsOf(field: string | undefined): number {
	if (!field) return 0;
	const value = Number(field);
	return Number.isFinite(value) && value > 0 ? (value - 1) & ~LOCK_BITS : 0;
}

function kittyCandidates(code: number, shifted: number | undefined, base: number | undefined, mods: number) {
	const candidates: KeyCandidate[] = [];
	const key = codeKey(code);
	if (key === undefined) return candidates;
	candidates.push({ key, mods });
	if (mods & MOD_SHIFT && shifted !== undefined) {
		// Shift+= reported with shifted key `+` also reads as `+`; shifted letters stay shift+letter.
		const sym = String.fromCodePoint(shifted);
		if (sym.toLowerCase() !== key) candidates.push({ key: sym, mods: mods & ~MOD_SHIFT });
	}
	// Base-layout match only for non-Latin keys, so Dvorak/Colemak letters keep their meaning.
	if (base !== undefined && !isLatinOrSymbol(key) && key.length === 1) {
		const baseKey = codeKey(base);
		if (baseKey) candidates.push({ key: baseKey, mods });
	}
	return candidates;
}

const CSI_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d*)(?::(\d+))?)?(?:;[\d:]*)?u$/;
const CSI_TILDE = /^\x1b\[(\d+)(?:;(\d+)(?::(\d+))?)?~$/;
const CSI_LETTER = /^\x1b\[(?:1)?(?:;(\d+)(?::(\d+))?)?([ABCDHFEPQRS])$/;
const MODIFY_OTHER_KEYS = /^\x1b\[27;(\d+);(\d+)~$/;

function decodeCsi(data: string): DecodedKey | undefined {
	let m = CSI_U.exec(data);
	if (m) {
		const code = Number(m[1]);
		const shifted = m[2] ? Number(m[2]) : undefined;
		const base = m[3] ? Number(m[3]) : undefined;
		const mods = modsOf(m[4]);
		const decoded: DecodedKey = {
			candidates: kittyCandidates(code, shifted, base, mods),
			event: m[5] ? Number(m[5]) : 1,
		};
		if (code >= 32 && code !== 127 && !(code >= 57344 && code <= 63743))
			decoded.printable = { code, mods, ...(shifted !== undefined ? { shifted } : {}) };
		return decoded;
	}
	m = MODIFY_OTHER_KEYS.exec(data);
	if (m) {
		const code = Number(m[2]);
		const mods = modsOf(m[1]);
		const decoded: DecodedKey = { candidates: kittyCandidates(code, undefined, undefined, mods), event: 1 };
		if (code >= 32 && code !== 127) decoded.printable = { code, mods };
		return decoded;
	}
	m = CSI_TILDE.exec(data);
	if (m) {
		const key = TILDE[Number(m[1])];
		if (!key) return undefined;
		return { candidates: [{ key, mods: modsOf(m[2]) }], event: m[3] ? Number(m[3]) : 1 };
	}
	m = CSI_LETTER.exec(data);
	if (m && (m[1] || m[3] !== "R")) {
		return { candidates: [{ key: LETTER_FINAL[m[3]!]!, mods: modsOf(m[1]) }], event: m[2] ? Number(m[2]) : 1 };
	}
	return undefined;
}

function legacyTable(): Record<string, KeyCandidate[]> {
	const kitty = isKittyProtocolActive();
	const windowsTerminal = !!process.env.WT_SESSION && !process.env.SSH_CONNECTION && !process.env.SSH_TTY;
	const k = (key: string, mods = 0): KeyCandidate => ({ key, mods });
	const table: Record<string, KeyCandidate[]> = {
		"\x1b": [k("escape")],
		"\r": [k("enter"), k("m", MOD_CTRL)],
		"\x1bOM": [k("enter")],
		"\n": kitty ? [k("enter", MOD_SHIFT), k("j", MOD_CTRL)] : [k("enter"), k("j", MOD_CTRL)],
		"\x1b\r": kitty ? [k("enter", MOD_SHIFT)] : [k("enter", MOD_ALT)],
		"\t": [k("tab"), k("i", MOD_CTRL)],
		"\x1b[Z": [k("tab", MOD_SHIFT)],
		" ": [k("space")],
		"\x00": [k("space", MOD_CTRL)],
		"\x1b ": [k("space", MOD_ALT)],
		"\x7f": [k("backspace")],
		"\x08": windowsTerminal ? [k("backspace", MOD_CTRL)] : [k("backspace"), k("h", MOD_CTRL)],
		"\x1b\x7f": [k("backspace", MOD_ALT)],
		"\x1b\b": [k("backspace", MOD_ALT)],
		"\x1b[a": [k("up", MOD_SHIFT)],
		"\x1b[b": [k("down", MOD_SHIFT)],
		"\x1b[c": [k("right", MOD_SHIFT)],
		"\x1b[d": [k("left", MOD_SHIFT)],
		"\x1bOa": [k("up", MOD_CTRL)],
		"\x1bOb": [k("down", MOD_CTRL)],
		"\x1bOc": [k("right", MOD_CTRL)],
		"\x1bOd": [k("left", MOD_CTRL)],
		"\x1bb": [k("left", MOD_ALT), k("b", MOD_ALT)],
		"\x1bf": [k("right", MOD_ALT), k("f", MOD_ALT)],
		"\x1bp": [k("up", MOD_ALT), k("p", MOD_ALT)],
		"\x1bn": [k("down", MOD_ALT), k("n", MOD_ALT)],
		"\x1b[1~": [k("home")],
		"\x1b[4~": [k("end")],
		"\x1b[[5~": [k("pageUp")],
		"\x1b[[6~": [k("pageDown")],
		"\x1b[[A": [k("f1")],
		"\x1b[[B": [k("f2")],
		"\x1b[[C": [k("f3")],
		"\x1b[[D": [k("f4")],
		"\x1b[[E": [k("f5")],
	};
	if (!kitty) {
		table["\x1bB"] = [k("left", MOD_ALT), k("b", MOD_ALT | MOD_SHIFT)];
		table["\x1bF"] = [k("right", MOD_ALT), k("f", MOD_ALT | MOD_SHIFT)];
	}
	const rxvt: Record<string, string> = { 2: "insert", 3: "delete", 5: "pageUp", 6: "pageDown", 7: "home", 8: "end" };
	for (const [n, key] of Object.entries(rxvt)) {
		table[`\x1b[${n}$`] = [k(key, MOD_SHIFT)];
		table[`\x1b[${n}^`] = [k(key, MOD_CTRL)];
	}
	for (const [final, key] of Object.entries({ A: "up", B: "down", C: "right", D: "left", H: "home", F: "end" })) {
		table[`\x1bO${final}`] = [k(key)];
	}
	table["\x1bOE"] = [k("clear")];
	for (const [final, key] of Object.entries({ P: "f1", Q: "f2", R: "f3", S: "f4" })) table[`\x1bO${final}`] = [k(key)];
	return table;
}

/** Reads a printable or control character (optionally ESC-prefixed for Alt) as key candidates. */
function decodeCharacter(data: string): KeyCandidate[] {
	let mods = 0;
	let rest = data;
	if (rest.length > 1 && rest[0] === "\x1b") {
		mods |= MOD_ALT;
		rest = rest.slice(1);
	}
	const cp = rest.codePointAt(0)!;
	if (String.fromCodePoint(cp) !== rest) return [];
	if (cp < 0x20) {
		if (cp >= 1 && cp <= 26) return [{ key: String.fromCharCode(cp + 96), mods: mods | MOD_CTRL }];
		if (cp === 0x1c) return [{ key: "\\", mods: mods | MOD_CTRL }];
		if (cp === 0x1d) return [{ key: "]", mods: mods | MOD_CTRL }];
		if (cp === 0x1f)
			return [
				{ key: "-", mods: mods | MOD_CTRL },
				{ key: "_", mods: mods | MOD_CTRL },
			];
		return [];
	}
	if (cp === 0x7f) return [];
	const ch = String.fromCodePoint(cp);
	if (/^[A-Z]$/.test(ch)) return [{ key: ch.toLowerCase(), mods: mods | MOD_SHIFT }];
	if (ch === " ") return [{ key: "space", mods }];
	return [{ key: ch, mods }];
}

/** All the (key, modifiers) readings of one input sequence; empty when it is not a key. */
export function decodeKey(data: string): DecodedKey {
	if (data.length === 0 || data.includes("\x1b[200~")) return { candidates: [], event: 1 };
	const legacy = legacyTable()[data];
	if (legacy) return { candidates: legacy, event: 1 };
	if (data.startsWith("\x1b[")) {
		const csi = decodeCsi(data);
		if (csi) return csi;
	}
	return { candidates: decodeCharacter(data), event: 1 };
}
