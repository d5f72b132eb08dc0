import { MODIFIERS, SYMBOL_KEYS } from "./key-reports.js";

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
/** A key without modifiers: a letter, digit, named key or symbol. */
export type BaseKey = Letter | Digit | SpecialKey | Symbol;
/** A key with zero or more modifiers, e.g. `ctrl+c`, `shift+enter`, `ctrl+shift+up`. */
export type KeyId = BaseKey | `${string}+${string}`;

const MODIFIER_NAMES = ["shift", "alt", "ctrl", "super"] as const;

export interface ParsedKeyId {
	/** Lower-cased key name (`pageup`, `c`, `+`). */
	key: string;
	/** Bitmask of MODIFIERS. */
	modifier: number;
}

const parsedIds = new Map<string, ParsedKeyId | null>();

/**
 * Reads a key id: modifier prefixes (case-insensitive, each at most once, any order) and one key. Null for
 * a repeated modifier or a key containing `+` (other than `+` itself); unknown key names parse but match
 * nothing.
 */
export function parseKeyId(keyId: string): ParsedKeyId | null {
	const cached = parsedIds.get(keyId);
	if (cached !== undefined) return cached;
	let key = keyId.toLowerCase();
	let modifier = 0;
	let result: ParsedKeyId | null = null;
	for (;;) {
		const name = MODIFIER_NAMES.find((candidate) => key.startsWith(`${candidate}+`));
		if (!name) break;
		if (modifier & MODIFIERS[name]) {
			modifier = -1;
			break;
		}
		modifier |= MODIFIERS[name];
		key = key.slice(name.length + 1);
	}
	if (modifier >= 0 && key && (!key.includes("+") || key === "+")) result = { key, modifier };
	parsedIds.set(keyId, result);
	return result;
}

const NAMED_KEYS = new Set([
	"escape",
	"esc",
	"enter",
	"return",
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

/** Whether `value` is a key id of the keybinding grammar naming a key that exists. */
export function isValidKeyId(value: unknown): value is KeyId {
	if (typeof value !== "string" || value === "") return false;
	const parsed = parseKeyId(value);
	if (!parsed) return false;
	return NAMED_KEYS.has(parsed.key) || /^[a-z0-9]$/.test(parsed.key) || SYMBOL_KEYS.has(parsed.key);
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
