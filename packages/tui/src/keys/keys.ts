import { decodeKey, MOD_ALT, MOD_CTRL, MOD_SHIFT, MOD_SUPER, SYMBOL_KEYS } from "./key-event.js";

type Letter =
	| "a"
	| "b"
	| "c"
	| "d"
	| "e"
	| "f"
	| "g"
	| "h"
	| "i"
	| "j"
	| "k"
	| "l"
	| "m"
	| "n"
	| "o"
	| "p"
	| "q"
	| "r"
	| "s"
	| "t"
	| "u"
	| "v"
	| "w"
	| "x"
	| "y"
	| "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type SpecialKey =
	| "escape"
	| "esc"
	| "enter"
	| "return"
	| "tab"
	| "space"
	| "backspace"
	| "delete"
	| "insert"
	| "clear"
	| "home"
	| "end"
	| "pageUp"
	| "pageDown"
	| "up"
	| "down"
	| "left"
	| "right"
	| `f${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12}`;
type Symbol =
	| "`"
	| "-"
	| "="
	| "["
	| "]"
	| "\\"
	| ";"
	| "'"
	| ","
	| "."
	| "/"
	| "!"
	| "@"
	| "#"
	| "$"
	| "%"
	| "^"
	| "&"
	| "*"
	| "("
	| ")"
	| "_"
	| "+"
	| "|"
	| "~"
	| "{"
	| "}"
	| ":"
	| "<"
	| ">"
	| "?";
export type BaseKey = Letter | Digit | SpecialKey | Symbol;
/** A key with zero or more modifiers, e.g. `ctrl+c`, `shift+enter`, `ctrl+shift+up`. */
export type KeyId = BaseKey | `${string}+${string}`;

const MODIFIER_BITS: Record<string, number> = { shift: MOD_SHIFT, alt: MOD_ALT, ctrl: MOD_CTRL, super: MOD_SUPER };
const ALIASES: Record<string, string> = { esc: "escape", return: "enter" };
const NAMED = new Set([
	"escape",
	"enter",
	"tab",
	"space",
	"backspace",
	"delete",
	"insert",
	"clear",
	"home",
	"end",
	"pageup",
	"pagedown",
	"up",
	"down",
	"left",
	"right",
	...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);

interface ParsedKeyId {
	key: string;
	mods: number;
}

const parsedIds = new Map<string, ParsedKeyId | null>();

/** Parses a key id; null when it is invalid (repeated modifier, unknown key). */
function parseKeyId(id: string): ParsedKeyId | null {
	const cached = parsedIds.get(id);
	if (cached !== undefined) return cached;
	let result: ParsedKeyId | null = null;
	const lower = id.toLowerCase();
	let key = lower;
	let mods = 0;
	let valid = true;
	// The `+` key itself may end the id: "ctrl++".
	const parts = lower.endsWith("++") ? [...lower.slice(0, -2).split("+"), "+"] : lower.split("+");
	if (lower === "+") parts.splice(0, parts.length, "+");
	key = parts.pop()!;
	for (const part of parts) {
		const bit = MODIFIER_BITS[part];
		if (!bit || mods & bit) valid = false;
		else mods |= bit;
	}
	key = ALIASES[key] ?? key;
	if (valid && (NAMED.has(key) || /^[a-z0-9]$/.test(key) || (key.length === 1 && SYMBOL_KEYS.includes(key))))
		result = { key, mods };
	parsedIds.set(id, result);
	return result;
}

/** Whether `value` is a key id of the keybinding grammar (distinct modifiers, then one known key). */
export function isValidKeyId(value: unknown): value is KeyId {
	return typeof value === "string" && value !== "" && parseKeyId(value) !== null;
}

/** Whether the input sequence `data` is the key `keyId` (any supported encoding). */
export function matchesKey(data: string, keyId: KeyId | string): boolean {
	const wanted = parseKeyId(keyId);
	if (!wanted) return false;
	for (const c of decodeKey(data).candidates) {
		if (c.mods === wanted.mods && c.key.toLowerCase() === wanted.key) return true;
	}
	return false;
}

const CANONICAL_NAMES: Record<string, string> = { pageup: "pageUp", pagedown: "pageDown" };

/** The canonical key id of `data` (modifiers ordered shift+ctrl+alt+super), or undefined. */
export function parseKey(data: string): string | undefined {
	const first = decodeKey(data).candidates[0];
	if (!first) return undefined;
	const parts: string[] = [];
	if (first.mods & MOD_SHIFT) parts.push("shift");
	if (first.mods & MOD_CTRL) parts.push("ctrl");
	if (first.mods & MOD_ALT) parts.push("alt");
	if (first.mods & MOD_SUPER) parts.push("super");
	parts.push(CANONICAL_NAMES[first.key.toLowerCase()] ?? first.key);
	return parts.join("+");
}

const EVENT_SUFFIX = /:(\d)[u~ABCDHFPQS]$/;

export function isKeyRelease(data: string): boolean {
	if (data.includes("\x1b[200~")) return false;
	return EVENT_SUFFIX.exec(data)?.[1] === "3";
}

export function isKeyRepeat(data: string): boolean {
	if (data.includes("\x1b[200~")) return false;
	return EVENT_SUFFIX.exec(data)?.[1] === "2";
}

/** The character a CSI-u / modifyOtherKeys report of a printable key produces (Shift and locks only). */
export function decodeKittyPrintable(data: string): string | undefined {
	if (!data.startsWith("\x1b[")) return undefined;
	const decoded = decodeKey(data);
	const p = decoded.printable;
	if (!p || decoded.event === 3) return undefined;
	if (p.mods & ~MOD_SHIFT) return undefined;
	if (p.mods & MOD_SHIFT) {
		if (p.shifted !== undefined) return String.fromCodePoint(p.shifted);
		return String.fromCodePoint(p.code).toUpperCase();
	}
	return String.fromCodePoint(p.code);
}

/** A printable key's character from a plain character or a CSI-u report. */
export function decodePrintableKey(data: string): string | undefined {
	const kitty = decodeKittyPrintable(data);
	if (kitty !== undefined) return kitty;
	const cp = data.codePointAt(0);
	if (cp === undefined || cp < 0x20 || cp === 0x7f || String.fromCodePoint(cp) !== data) return undefined;
	return data;
}

function combo(...mods: string[]) {
	return (key: BaseKey): KeyId => `${mods.join("+")}+${key}` as KeyId;
}

/** Key id constants and modifier builders. */
export const Key = {
	escape: "escape",
	esc: "esc",
	enter: "enter",
	return: "return",
	tab: "tab",
	space: "space",
	backspace: "backspace",
	delete: "delete",
	insert: "insert",
	clear: "clear",
	home: "home",
	end: "end",
	pageUp: "pageUp",
	pageDown: "pageDown",
	up: "up",
	down: "down",
	left: "left",
	right: "right",
	f1: "f1",
	f2: "f2",
	f3: "f3",
	f4: "f4",
	f5: "f5",
	f6: "f6",
	f7: "f7",
	f8: "f8",
	f9: "f9",
	f10: "f10",
	f11: "f11",
	f12: "f12",
	backtick: "`",
	hyphen: "-",
	equals: "=",
	leftbracket: "[",
	rightbracket: "]",
	backslash: "\\",
	semicolon: ";",
	quote: "'",
	comma: ",",
	period: ".",
	slash: "/",
	exclamation: "!",
	at: "@",
	hash: "#",
	dollar: "$",
	percent: "%",
	caret: "^",
	ampersand: "&",
	asterisk: "*",
	leftparen: "(",
	rightparen: ")",
	underscore: "_",
	plus: "+",
	pipe: "|",
	tilde: "~",
	leftbrace: "{",
	rightbrace: "}",
	colon: ":",
	lessthan: "<",
	greaterthan: ">",
	question: "?",
	ctrl: combo("ctrl"),
	shift: combo("shift"),
	alt: combo("alt"),
	super: combo("super"),
	ctrlShift: combo("ctrl", "shift"),
	shiftCtrl: combo("shift", "ctrl"),
	ctrlAlt: combo("ctrl", "alt"),
	altCtrl: combo("alt", "ctrl"),
	shiftAlt: combo("shift", "alt"),
	altShift: combo("alt", "shift"),
	ctrlSuper: combo("ctrl", "super"),
	superCtrl: combo("super", "ctrl"),
	shiftSuper: combo("shift", "super"),
	superShift: combo("super", "shift"),
	altSuper: combo("alt", "super"),
	superAlt: combo("super", "alt"),
	ctrlShiftAlt: combo("ctrl", "shift", "alt"),
	ctrlShiftSuper: combo("ctrl", "shift", "super"),
} as const;
