/**
 * What terminals send for keys (docs/tui.md "Keys"): Kitty CSI-u reports, xterm's modifyOtherKeys, the
 * xterm/rxvt cursor and function key sequences and legacy control characters, parsed into a codepoint
 * (negative for keys without one) and a modifier bitmask.
 */

export const MODIFIERS = { shift: 1, alt: 2, ctrl: 4, super: 8 } as const;
/** Caps Lock and Num Lock: reported by Kitty, never part of a binding. */
export const LOCK_MASK = 64 | 128;

export const CODEPOINTS = { escape: 27, tab: 9, enter: 13, space: 32, backspace: 127, keypadEnter: 57414 } as const;

export const ARROWS = { up: -1, down: -2, right: -3, left: -4 } as const;

export const FUNCTIONAL_KEYS = {
	delete: -10,
	insert: -11,
	pageUp: -12,
	pageDown: -13,
	home: -14,
	end: -15,
	f1: -21,
	f2: -22,
	f3: -23,
	f4: -24,
	f5: -25,
	f6: -26,
	f7: -27,
	f8: -28,
	f9: -29,
	f10: -30,
	f11: -31,
	f12: -32,
} as const;

export const SYMBOL_KEYS = new Set("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?");
/** Symbols typed with Shift on a US keyboard. */
export const SHIFTED_SYMBOL_KEYS = new Set("~!@#$%^&*()_+|{}:<>?");

/** Kitty's private-use range for keys without text (F13–F35, media and modifier keys). */
export const KITTY_FUNCTIONAL_RANGE = [57344, 63743] as const;

/** Kitty keypad keys and the ordinary keys they stand for. */
const KEYPAD_EQUIVALENTS = new Map<number, number>([
	...Array.from({ length: 10 }, (_, digit) => [57399 + digit, 48 + digit] as [number, number]),
	[57409, 46],
	[57410, 47],
	[57411, 42],
	[57412, 45],
	[57413, 43],
	[57415, 61],
	[57416, 44],
	[57417, ARROWS.left],
	[57418, ARROWS.right],
	[57419, ARROWS.up],
	[57420, ARROWS.down],
	[57421, FUNCTIONAL_KEYS.pageUp],
	[57422, FUNCTIONAL_KEYS.pageDown],
	[57423, FUNCTIONAL_KEYS.home],
	[57424, FUNCTIONAL_KEYS.end],
	[57425, FUNCTIONAL_KEYS.insert],
	[57426, FUNCTIONAL_KEYS.delete],
]);

export function withoutKeypad(codepoint: number): number {
	return KEYPAD_EQUIVALENTS.get(codepoint) ?? codepoint;
}

/** A Shift+letter report names the letter: uppercase codepoints read as lowercase when Shift is held. */
export function letterIdentity(codepoint: number, modifier: number): number {
	const shift = (modifier & ~LOCK_MASK & MODIFIERS.shift) !== 0;
	return shift && codepoint >= 65 && codepoint <= 90 ? codepoint + 32 : codepoint;
}

/**
 * A shifted symbol read as the symbol it produces (Shift+= reported with `+` is `+`): the codepoint and
 * the modifiers without Shift, when `codepoint` is one of `allowed` and Shift is held.
 */
export function producedSymbol(
	codepoint: number | undefined,
	modifier: number,
	allowed: ReadonlySet<string>,
): { codepoint: number; modifier: number } | undefined {
	if (codepoint === undefined || (modifier & MODIFIERS.shift) === 0) return undefined;
	const normalized = withoutKeypad(codepoint);
	if (!allowed.has(String.fromCharCode(normalized))) return undefined;
	return { codepoint: normalized, modifier: modifier & ~MODIFIERS.shift };
}

export interface KeyReport {
	codepoint: number;
	/** Kitty's shifted key (alternate key reporting). */
	shiftedKey?: number;
	/** The key at the same position on a US layout (alternate key reporting). */
	baseLayoutKey?: number;
	modifier: number;
}

const CSI_U = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;
const CSI_ARROW = /^\x1b\[1;(\d+)(?::(\d+))?([ABCD])$/;
const CSI_TILDE = /^\x1b\[(\d+)(?:;(\d+))?(?::(\d+))?~$/;
const CSI_HOME_END = /^\x1b\[1;(\d+)(?::(\d+))?([HF])$/;
// F3 is left out: `CSI 1 ; n R` is also a cursor position report.
const CSI_F1_F2_F4 = /^\x1b\[(?:1;(\d+)(?::(\d+))?)?([PQS])$/;

const ARROW_FINALS: Record<string, number> = { A: ARROWS.up, B: ARROWS.down, C: ARROWS.right, D: ARROWS.left };
const TILDE_KEYS: Record<number, number> = {
	2: FUNCTIONAL_KEYS.insert,
	3: FUNCTIONAL_KEYS.delete,
	5: FUNCTIONAL_KEYS.pageUp,
	6: FUNCTIONAL_KEYS.pageDown,
	7: FUNCTIONAL_KEYS.home,
	8: FUNCTIONAL_KEYS.end,
	11: FUNCTIONAL_KEYS.f1,
	12: FUNCTIONAL_KEYS.f2,
	13: FUNCTIONAL_KEYS.f3,
	14: FUNCTIONAL_KEYS.f4,
	15: FUNCTIONAL_KEYS.f5,
	17: FUNCTIONAL_KEYS.f6,
	18: FUNCTIONAL_KEYS.f7,
	19: FUNCTIONAL_KEYS.f8,
	20: FUNCTIONAL_KEYS.f9,
	21: FUNCTIONAL_KEYS.f10,
	23: FUNCTIONAL_KEYS.f11,
	24: FUNCTIONAL_KEYS.f12,
};
const F_FINALS: Record<string, number> = { P: FUNCTIONAL_KEYS.f1, Q: FUNCTIONAL_KEYS.f2, S: FUNCTIONAL_KEYS.f4 };

/** CSI modifier parameters count from 1 (1 = none). */
const modifierOf = (parameter: string | undefined) => (parameter ? Number.parseInt(parameter, 10) : 1) - 1;

/** A Kitty-style report: CSI-u, or a cursor/function key with a modifier parameter. */
export function parseKittyReport(data: string): KeyReport | undefined {
	const csiU = CSI_U.exec(data);
	if (csiU) {
		const report: KeyReport = { codepoint: Number.parseInt(csiU[1]!, 10), modifier: modifierOf(csiU[4]) };
		if (csiU[2]) report.shiftedKey = Number.parseInt(csiU[2], 10);
		if (csiU[3]) report.baseLayoutKey = Number.parseInt(csiU[3], 10);
		return report;
	}
	const arrow = CSI_ARROW.exec(data);
	if (arrow) return { codepoint: ARROW_FINALS[arrow[3]!]!, modifier: modifierOf(arrow[1]) };
	const tilde = CSI_TILDE.exec(data);
	const tildeKey = tilde ? TILDE_KEYS[Number.parseInt(tilde[1]!, 10)] : undefined;
	if (tilde && tildeKey !== undefined) return { codepoint: tildeKey, modifier: modifierOf(tilde[2]) };
	const homeEnd = CSI_HOME_END.exec(data);
	if (homeEnd) {
		const codepoint = homeEnd[3] === "H" ? FUNCTIONAL_KEYS.home : FUNCTIONAL_KEYS.end;
		return { codepoint, modifier: modifierOf(homeEnd[1]) };
	}
	const fKey = CSI_F1_F2_F4.exec(data);
	if (fKey) return { codepoint: F_FINALS[fKey[3]!]!, modifier: modifierOf(fKey[1]) };
	return undefined;
}

/** xterm's modifyOtherKeys report: `CSI 27 ; modifiers ; keycode ~`. */
export function parseModifyOtherKeys(data: string): KeyReport | undefined {
	const match = /^\x1b\[27;(\d+);(\d+)~$/.exec(data);
	return match ? { codepoint: Number.parseInt(match[2]!, 10), modifier: modifierOf(match[1]) } : undefined;
}

/** Windows Terminal sends 0x08 for Ctrl+Backspace (not over SSH, where the far end decides). */
export function isWindowsTerminalSession(): boolean {
	const env = process.env;
	return Boolean(env.WT_SESSION) && !env.SSH_CONNECTION && !env.SSH_CLIENT && !env.SSH_TTY;
}
