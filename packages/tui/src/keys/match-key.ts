import { parseKeyId } from "./key-id.js";
import {
	ARROWS,
	CODEPOINTS,
	FUNCTIONAL_KEYS,
	isWindowsTerminalSession,
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
import { LEGACY_CTRL_SEQUENCES, LEGACY_KEY_SEQUENCES, LEGACY_SHIFT_SEQUENCES } from "./legacy-sequences.js";

const { shift: SHIFT, alt: ALT, ctrl: CTRL } = MODIFIERS;

/** A Kitty report of `codepoint` with exactly `modifier` (locks ignored), read physically or logically. */
function kittyMatches(data: string, codepoint: number, modifier: number): boolean {
	const report = parseKittyReport(data);
	if (!report) return false;
	const actual = report.modifier & ~LOCK_MASK;
	const expected = modifier & ~LOCK_MASK;
	const reported = letterIdentity(withoutKeypad(report.codepoint), report.modifier);
	if (actual === expected && reported === letterIdentity(withoutKeypad(codepoint), modifier)) return true;
	// Bindings name the symbol a shifted key produces: `+` is Shift and the `=` key.
	const symbol = producedSymbol(report.shiftedKey, actual, SYMBOL_KEYS);
	if (symbol && (symbol.modifier & ~LOCK_MASK) === expected && symbol.codepoint === withoutKeypad(codepoint)) {
		return true;
	}
	if (actual !== expected || report.baseLayoutKey !== codepoint) return false;
	// The US-layout position decides only for keys that are not Latin letters or known symbols (Ctrl+С on a
	// Cyrillic layout is Ctrl+C); Dvorak or Colemak letters keep their own meaning.
	return !(reported >= 97 && reported <= 122) && !SYMBOL_KEYS.has(String.fromCharCode(reported));
}

function modifyOtherKeysMatches(data: string, codepoint: number, modifier: number): boolean {
	const report = parseModifyOtherKeys(data);
	return report !== undefined && report.codepoint === codepoint && report.modifier === modifier;
}

/** modifyOtherKeys for printable keys: Shift+letter by the letter, shifted symbols by the symbol. */
function printableModifyOtherKeysMatches(data: string, codepoint: number, modifier: number): boolean {
	const report = parseModifyOtherKeys(data);
	if (!report) return false;
	if (
		report.modifier === modifier &&
		letterIdentity(report.codepoint, report.modifier) === letterIdentity(codepoint, modifier)
	) {
		return true;
	}
	const symbol = producedSymbol(report.codepoint, report.modifier, SHIFTED_SYMBOL_KEYS);
	return symbol?.modifier === modifier && symbol.codepoint === codepoint;
}

/** A report of `codepoint` with `modifier` in either CSI-u or modifyOtherKeys form. */
const reported = (data: string, codepoint: number, modifier: number) =>
	kittyMatches(data, codepoint, modifier) || modifyOtherKeysMatches(data, codepoint, modifier);

function legacyModifiedMatches(data: string, key: string, modifier: number): boolean {
	if (modifier === SHIFT) return LEGACY_SHIFT_SEQUENCES[key]?.includes(data) ?? false;
	if (modifier === CTRL) return LEGACY_CTRL_SEQUENCES[key]?.includes(data) ?? false;
	return false;
}

/** 0x7f is Backspace; 0x08 is Ctrl+Backspace in Windows Terminal and Backspace elsewhere. */
function rawBackspaceMatches(data: string, modifier: number): boolean {
	if (data === "\x7f") return modifier === 0;
	if (data !== "\x08") return false;
	return modifier === (isWindowsTerminalSession() ? CTRL : 0);
}

function matchesEnter(data: string, modifier: number, kitty: boolean): boolean {
	const enterReport = (mod: number) =>
		kittyMatches(data, CODEPOINTS.enter, mod) || kittyMatches(data, CODEPOINTS.keypadEnter, mod);
	if (modifier === SHIFT) {
		if (enterReport(SHIFT) || modifyOtherKeysMatches(data, CODEPOINTS.enter, SHIFT)) return true;
		// With Kitty on, these are terminal mappings for Shift+Enter (Kitty's `\e\r`, Ghostty's `\n`).
		return kitty && (data === "\x1b\r" || data === "\n");
	}
	if (modifier === ALT) {
		if (enterReport(ALT) || modifyOtherKeysMatches(data, CODEPOINTS.enter, ALT)) return true;
		return !kitty && data === "\x1b\r";
	}
	if (modifier === 0) {
		return data === "\r" || (!kitty && data === "\n") || data === "\x1bOM" || enterReport(0);
	}
	return enterReport(modifier) || modifyOtherKeysMatches(data, CODEPOINTS.enter, modifier);
}

/** Insert, Delete, Home, End, Page Up and Page Down. */
function navigationMatcher(name: string, codepoint: number) {
	return (data: string, modifier: number): boolean =>
		modifier === 0
			? LEGACY_KEY_SEQUENCES[name]!.includes(data) || kittyMatches(data, codepoint, 0)
			: legacyModifiedMatches(data, name, modifier) || kittyMatches(data, codepoint, modifier);
}

/** Up and Down; Alt also reads the Emacs-style `ESC p` / `ESC n`. */
function verticalArrowMatcher(name: "up" | "down", altSequence: string) {
	const codepoint = ARROWS[name];
	return (data: string, modifier: number): boolean => {
		if (modifier === ALT) return data === altSequence || kittyMatches(data, codepoint, ALT);
		return navigationMatcher(name, codepoint)(data, modifier);
	};
}

/** Left and Right, whose Alt and Ctrl forms have several spellings. */
function horizontalArrowMatcher(name: "left" | "right", final: "D" | "C", altLetter: "b" | "f") {
	const codepoint = ARROWS[name];
	return (data: string, modifier: number, kitty: boolean): boolean => {
		if (modifier === ALT) {
			return (
				data === `\x1b[1;3${final}` ||
				(!kitty && data === `\x1b${altLetter.toUpperCase()}`) ||
				data === `\x1b${altLetter}` ||
				kittyMatches(data, codepoint, ALT)
			);
		}
		if (modifier === CTRL) {
			return (
				data === `\x1b[1;5${final}` ||
				legacyModifiedMatches(data, name, CTRL) ||
				kittyMatches(data, codepoint, CTRL)
			);
		}
		return navigationMatcher(name, codepoint)(data, modifier);
	};
}

type Matcher = (data: string, modifier: number, kitty: boolean) => boolean;

const matchesEscape: Matcher = (data, modifier) =>
	modifier === 0 &&
	(data === "\x1b" || kittyMatches(data, CODEPOINTS.escape, 0) || modifyOtherKeysMatches(data, CODEPOINTS.escape, 0));

const SPECIAL_KEYS: Record<string, Matcher> = {
	escape: matchesEscape,
	esc: matchesEscape,
	space: (data, modifier, kitty) => {
		if (!kitty && modifier === CTRL && data === "\x00") return true;
		if (!kitty && modifier === ALT && data === "\x1b ") return true;
		return (modifier === 0 && data === " ") || reported(data, CODEPOINTS.space, modifier);
	},
	tab: (data, modifier) => {
		if (modifier === SHIFT) return data === "\x1b[Z" || reported(data, CODEPOINTS.tab, SHIFT);
		if (modifier === 0) return data === "\t" || kittyMatches(data, CODEPOINTS.tab, 0);
		return reported(data, CODEPOINTS.tab, modifier);
	},
	enter: matchesEnter,
	return: matchesEnter,
	backspace: (data, modifier) => {
		if (modifier === ALT && (data === "\x1b\x7f" || data === "\x1b\b")) return true;
		if ((modifier === CTRL || modifier === 0) && rawBackspaceMatches(data, modifier)) return true;
		return reported(data, CODEPOINTS.backspace, modifier);
	},
	insert: navigationMatcher("insert", FUNCTIONAL_KEYS.insert),
	delete: navigationMatcher("delete", FUNCTIONAL_KEYS.delete),
	home: navigationMatcher("home", FUNCTIONAL_KEYS.home),
	end: navigationMatcher("end", FUNCTIONAL_KEYS.end),
	pageup: navigationMatcher("pageUp", FUNCTIONAL_KEYS.pageUp),
	pagedown: navigationMatcher("pageDown", FUNCTIONAL_KEYS.pageDown),
	// Clear (keypad 5 without Num Lock) has legacy forms only.
	clear: (data, modifier) =>
		modifier === 0 ? LEGACY_KEY_SEQUENCES.clear!.includes(data) : legacyModifiedMatches(data, "clear", modifier),
	up: verticalArrowMatcher("up", "\x1bp"),
	down: verticalArrowMatcher("down", "\x1bn"),
	left: horizontalArrowMatcher("left", "D", "b"),
	right: horizontalArrowMatcher("right", "C", "f"),
};
for (let n = 1; n <= 12; n++) {
	const name = `f${n}` as keyof typeof FUNCTIONAL_KEYS;
	SPECIAL_KEYS[name] = (data, modifier) =>
		(modifier === 0 && LEGACY_KEY_SEQUENCES[name]!.includes(data)) ||
		kittyMatches(data, FUNCTIONAL_KEYS[name], modifier);
}

/** The control character Ctrl+key sends (letters, `[ \ ] _`, and `-` like `_`), or undefined. */
function controlCharacter(key: string): string | undefined {
	if (key === "-") return "\x1f";
	const code = key.charCodeAt(0);
	if ((code >= 97 && code <= 122) || "[\\]_".includes(key)) return String.fromCharCode(code & 0x1f);
	return undefined;
}

/** Letters, digits and symbols. */
function matchesPrintable(data: string, key: string, modifier: number, kitty: boolean): boolean {
	const codepoint = key.charCodeAt(0);
	const control = controlCharacter(key);
	// Legacy Alt and Ctrl+Alt are ESC before the key; with Kitty on, those keys arrive as reports instead.
	if (!kitty && modifier === CTRL + ALT && control && data === `\x1b${control}`) return true;
	if (!kitty && modifier === ALT && data === `\x1b${key}`) return true;
	if (modifier === CTRL && control && data === control) return true;
	if (modifier === SHIFT && key >= "a" && key <= "z" && data === key.toUpperCase()) return true;
	if (modifier === 0 && data === key) return true;
	return kittyMatches(data, codepoint, modifier) || printableModifyOtherKeysMatches(data, codepoint, modifier);
}

const isPrintableKey = (key: string) =>
	key.length === 1 && ((key >= "a" && key <= "z") || (key >= "0" && key <= "9") || SYMBOL_KEYS.has(key));

/** Whether the input sequence `data` is the key `keyId` in any encoding a terminal uses for it. */
export function matchesKey(data: string, keyId: string): boolean {
	const wanted = parseKeyId(keyId);
	if (!wanted) return false;
	const kitty = isKittyProtocolActive();
	const special = SPECIAL_KEYS[wanted.key];
	if (special) return special(data, wanted.modifier, kitty);
	return isPrintableKey(wanted.key) && matchesPrintable(data, wanted.key, wanted.modifier, kitty);
}
