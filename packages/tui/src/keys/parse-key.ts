import {
	ARROWS,
	CODEPOINTS,
	FUNCTIONAL_KEYS,
	isWindowsTerminalSession,
	KITTY_FUNCTIONAL_RANGE,
	LOCK_MASK,
	letterIdentity,
	MODIFIERS,
	parseKittyReport,
	parseModifyOtherKeys,
	producedSymbol,
	SHIFTED_SYMBOL_KEYS,
	SYMBOL_KEYS,
	withoutKeypad,
} from "./key-reports.js";
import { isKittyProtocolActive } from "./kitty-state.js";
import { LEGACY_SEQUENCE_KEY_IDS } from "./legacy-sequences.js";

const NAMED_CODEPOINTS = new Map<number, string>([
	[CODEPOINTS.escape, "escape"],
	[CODEPOINTS.tab, "tab"],
	[CODEPOINTS.enter, "enter"],
	[CODEPOINTS.keypadEnter, "enter"],
	[CODEPOINTS.space, "space"],
	[CODEPOINTS.backspace, "backspace"],
	...Object.entries(FUNCTIONAL_KEYS).map(([name, code]) => [code, name] as [number, string]),
	...Object.entries(ARROWS).map(([name, code]) => [code, name] as [number, string]),
]);

const isLatinLetter = (codepoint: number) => codepoint >= 97 && codepoint <= 122;
const isDigit = (codepoint: number) => codepoint >= 48 && codepoint <= 57;
const isSymbol = (codepoint: number) => SYMBOL_KEYS.has(String.fromCharCode(codepoint));

/** `shift+ctrl+alt+super+name` for the modifiers set; undefined for modifiers bindings cannot name. */
function withModifiers(name: string, modifier: number): string | undefined {
	const effective = modifier & ~LOCK_MASK;
	const known = MODIFIERS.shift | MODIFIERS.ctrl | MODIFIERS.alt | MODIFIERS.super;
	if ((effective & ~known) !== 0) return undefined;
	const names = (["shift", "ctrl", "alt", "super"] as const).filter((mod) => effective & MODIFIERS[mod]);
	return [...names, name].join("+");
}

/**
 * The key id of a reported key. A key that is not a Latin letter, digit or known symbol is named by its
 * US-layout position when the terminal reports one (Ctrl+С on a Cyrillic layout is `ctrl+c`).
 */
function formatReport(codepoint: number, modifier: number, baseLayoutKey?: number): string | undefined {
	const identity = letterIdentity(withoutKeypad(codepoint), modifier);
	const known = isLatinLetter(identity) || isDigit(identity) || isSymbol(identity);
	const effective = known ? identity : (baseLayoutKey ?? identity);
	const named = NAMED_CODEPOINTS.get(effective);
	if (named) return withModifiers(named, modifier);
	if (isLatinLetter(effective) || isDigit(effective) || isSymbol(effective)) {
		return withModifiers(String.fromCharCode(effective), modifier);
	}
	return undefined;
}

/** Input the legacy encodings give a fixed name, whatever the keyboard protocol. */
const FIXED_NAMES: Record<string, string> = {
	"\x1b": "escape",
	"\x1c": "ctrl+\\",
	"\x1d": "ctrl+]",
	"\x1f": "ctrl+-",
	"\x1b\x1b": "ctrl+alt+[",
	"\x1b\x1c": "ctrl+alt+\\",
	"\x1b\x1d": "ctrl+alt+]",
	"\x1b\x1f": "ctrl+alt+-",
	"\t": "tab",
	"\r": "enter",
	"\x1bOM": "enter",
	"\x00": "ctrl+space",
	" ": "space",
	"\x7f": "backspace",
	"\x1b[Z": "shift+tab",
	"\x1b\x7f": "alt+backspace",
	"\x1b\b": "alt+backspace",
	"\x1b[A": "up",
	"\x1b[B": "down",
	"\x1b[C": "right",
	"\x1b[D": "left",
	"\x1b[H": "home",
	"\x1b[F": "end",
	"\x1b[3~": "delete",
	"\x1b[5~": "pageUp",
	"\x1b[6~": "pageDown",
};

/** Input that means something else once the Kitty protocol is on (then the keys arrive as reports). */
const PRE_KITTY_NAMES: Record<string, string> = {
	"\n": "enter",
	"\x1b\r": "alt+enter",
	"\x1b ": "alt+space",
	"\x1bB": "alt+left",
	"\x1bF": "alt+right",
};

/** Legacy Alt: ESC before a letter, digit or symbol, or before a control character (Ctrl+Alt). */
function legacyAltName(data: string): string | undefined {
	if (data.length !== 2 || data[0] !== "\x1b") return undefined;
	const code = data.charCodeAt(1);
	if (code >= 1 && code <= 26) return `ctrl+alt+${String.fromCharCode(code + 96)}`;
	return isLatinLetter(code) || isDigit(code) || isSymbol(code) ? `alt+${data[1]}` : undefined;
}

/** The key id of an input sequence (modifiers ordered shift+ctrl+alt+super), or undefined. */
export function parseKey(data: string): string | undefined {
	const kitty = parseKittyReport(data);
	if (kitty) {
		const symbol = producedSymbol(kitty.shiftedKey, kitty.modifier, SYMBOL_KEYS);
		return formatReport(
			symbol?.codepoint ?? kitty.codepoint,
			symbol?.modifier ?? kitty.modifier,
			kitty.baseLayoutKey,
		);
	}
	const modifyOtherKeys = parseModifyOtherKeys(data);
	if (modifyOtherKeys) {
		const symbol = producedSymbol(modifyOtherKeys.codepoint, modifyOtherKeys.modifier, SHIFTED_SYMBOL_KEYS);
		return formatReport(symbol?.codepoint ?? modifyOtherKeys.codepoint, symbol?.modifier ?? modifyOtherKeys.modifier);
	}
	const kittyActive = isKittyProtocolActive();
	// Kitty's `map shift+enter send_text all \e\r` and Ghostty's `shift+enter=text:\n`.
	if (kittyActive && (data === "\x1b\r" || data === "\n")) return "shift+enter";
	const named =
		LEGACY_SEQUENCE_KEY_IDS[data] ?? FIXED_NAMES[data] ?? (kittyActive ? undefined : PRE_KITTY_NAMES[data]);
	if (named) return named;
	if (data === "\x08") return isWindowsTerminalSession() ? "ctrl+backspace" : "backspace";
	const alt = kittyActive ? undefined : legacyAltName(data);
	if (alt) return alt;
	if (data.length === 1) {
		const code = data.charCodeAt(0);
		if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
		if (code >= 32 && code <= 126) return data;
	}
	return undefined;
}

const CSI_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;

/**
 * The text of a Kitty CSI-u report of a printable key pressed alone or with Shift (the shifted key when
 * reported); undefined for other reports, control characters and keys without text.
 */
export function decodeKittyPrintable(data: string): string | undefined {
	const match = CSI_U.exec(data);
	if (!match) return undefined;
	const modifier = (match[4] ? Number.parseInt(match[4], 10) : 1) - 1;
	if ((modifier & ~(MODIFIERS.shift | LOCK_MASK)) !== 0) return undefined;
	const shifted = match[2] ? Number.parseInt(match[2], 10) : undefined;
	const codepoint = withoutKeypad(
		modifier & MODIFIERS.shift && shifted !== undefined ? shifted : Number.parseInt(match[1]!, 10),
	);
	if (codepoint < 32) return undefined;
	if (codepoint >= KITTY_FUNCTIONAL_RANGE[0] && codepoint <= KITTY_FUNCTIONAL_RANGE[1]) return undefined;
	return codepoint <= 0x10ffff ? String.fromCodePoint(codepoint) : undefined;
}

/** The text of a printable key reported by Kitty CSI-u or xterm's modifyOtherKeys (alone or with Shift). */
export function decodePrintableKey(data: string): string | undefined {
	const kitty = decodeKittyPrintable(data);
	if (kitty !== undefined) return kitty;
	const report = parseModifyOtherKeys(data);
	if (!report || (report.modifier & ~LOCK_MASK & ~MODIFIERS.shift) !== 0 || report.codepoint < 32) return undefined;
	return report.codepoint <= 0x10ffff ? String.fromCodePoint(report.codepoint) : undefined;
}

/** Kitty's event types (flag 2): `:2` marks a repeat and `:3` a release before the final byte. */
function hasEventType(data: string, event: 2 | 3): boolean {
	// Pasted text is never a key event, even when it contains such a pattern (a MAC address).
	if (data.includes("\x1b[200~")) return false;
	return [..."u~ABCDHFPQS"].some((final) => data.includes(`:${event}${final}`));
}

/** Whether this input is a key release event (only sent under the Kitty keyboard protocol). */
export function isKeyRelease(data: string): boolean {
	return hasEventType(data, 3);
}

/** Whether this input is a key repeat event (only sent under the Kitty keyboard protocol). */
export function isKeyRepeat(data: string): boolean {
	return hasEventType(data, 2);
}
