import {
	decodeKittyPrintable,
	getSelectPageIndex,
	isKeyRelease,
	isKeyRepeat,
	Key,
	KeybindingsManager,
	matchesKey,
	parseKey,
	setKittyProtocolActive,
	TUI_KEYBINDINGS,
} from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";

afterEach(() => setKittyProtocolActive(false));

describe("matchesKey", () => {
	// Legacy encodings first, then Kitty (with and without the press event type), then modifyOtherKeys.
	const cases: [string, string[]][] = [
		["ctrl+c", ["\x03", "\x1b[99;5u", "\x1b[99;5:1u", "\x1b[27;5;99~"]],
		["shift+enter", ["\x1b[13;2u", "\x1b[13;2:1u", "\x1b[27;2;13~"]],
		["alt+enter", ["\x1b\r", "\x1b[13;3u", "\x1b[13;3:1u", "\x1b[27;3;13~"]],
		["ctrl+left", ["\x1b[1;5D", "\x1bOd", "\x1b[1;5:1D"]],
		["shift+tab", ["\x1b[Z", "\x1b[9;2u", "\x1b[9;2:1u", "\x1b[27;2;9~"]],
		["f5", ["\x1b[15~", "\x1b[[E", "\x1b[15;1:1~"]],
		["ctrl+-", ["\x1f", "\x1b[45;5u", "\x1b[45;5:1u", "\x1b[27;5;45~"]],
	];
	for (const [key, encodings] of cases) {
		it(`accepts every encoding of ${key}`, () => {
			for (const data of encodings) expect(matchesKey(data, key), JSON.stringify(data)).toBe(true);
		});
	}
	it("does not confuse keys", () => {
		expect(matchesKey("\x03", "ctrl+d")).toBe(false);
		expect(matchesKey("c", "ctrl+c")).toBe(false);
		expect(matchesKey("\x1b[13;2u", "enter")).toBe(false);
		expect(matchesKey("\x1b[97;2u", "a")).toBe(false);
	});
	it("reads \\n as shift+enter with Kitty and \\x1b\\r as alt+enter without", () => {
		expect(matchesKey("\n", "enter")).toBe(true);
		expect(matchesKey("\x1b\r", "alt+enter")).toBe(true);
		setKittyProtocolActive(true);
		expect(matchesKey("\n", "shift+enter")).toBe(true);
		expect(matchesKey("\n", "enter")).toBe(false);
		expect(matchesKey("\x1b\r", "alt+enter")).toBe(false);
	});
	it("ignores Caps Lock and Num Lock bits", () => {
		expect(matchesKey("\x1b[99;69u", "ctrl+c")).toBe(true); // 1 + 4 + 64
		expect(matchesKey("\x1b[99;133u", "ctrl+c")).toBe(true); // 1 + 4 + 128
	});
	it("matches Ctrl+Cyrillic via the base-layout key but never Latin letters", () => {
		expect(matchesKey("\x1b[1089::99;5u", "ctrl+c")).toBe(true); // с with base c
		// Dvorak: physical key reports "j" with base-layout "c": must stay ctrl+j.
		expect(matchesKey("\x1b[106::99;5u", "ctrl+c")).toBe(false);
		expect(matchesKey("\x1b[106::99;5u", "ctrl+j")).toBe(true);
	});
	it("matches a shifted symbol logically", () => {
		expect(matchesKey("\x1b[61:43;6u", "ctrl++")).toBe(true);
	});
	it("rejects invalid ids", () => {
		expect(matchesKey("\x03", "ctrl+ctrl+c")).toBe(false);
		expect(matchesKey("a", "nonsense")).toBe(false);
	});
	it("handles legacy keys", () => {
		expect(matchesKey("\x1b[A", "up")).toBe(true);
		expect(matchesKey("\x1bOA", "up")).toBe(true);
		expect(matchesKey("\x1b[5~", "pageUp")).toBe(true);
		expect(matchesKey("\x1b[1;5F", "ctrl+end")).toBe(true);
		expect(matchesKey("\x7f", "backspace")).toBe(true);
		expect(matchesKey("\x1b\x7f", "alt+backspace")).toBe(true);
		expect(matchesKey("A", "shift+a")).toBe(true);
		expect(matchesKey("\x1bx", "alt+x")).toBe(true);
		expect(matchesKey("\x1b", Key.escape)).toBe(true);
		expect(matchesKey("\x1d", Key.ctrl("]"))).toBe(true);
	});
});

describe("parseKey and event types", () => {
	it("returns canonical ids", () => {
		expect(parseKey("\x1b[1;6A")).toBe("shift+ctrl+up");
		expect(parseKey("\x03")).toBe("ctrl+c");
		expect(parseKey("\x1b[6~")).toBe("pageDown");
	});
	it("detects release and repeat, never inside a paste", () => {
		expect(isKeyRelease("\x1b[97;1:3u")).toBe(true);
		expect(isKeyRepeat("\x1b[97;1:2u")).toBe(true);
		expect(isKeyRelease("\x1b[97u")).toBe(false);
		expect(isKeyRelease("\x1b[200~a:3u\x1b[201~")).toBe(false);
	});
	it("decodes printable Kitty reports", () => {
		expect(decodeKittyPrintable("\x1b[97u")).toBe("a");
		// Shift without the shifted key reported (tau asks for it, flag 4): the key's own character, as in pi.
		expect(decodeKittyPrintable("\x1b[97;2u")).toBe("a");
		expect(decodeKittyPrintable("\x1b[97:65;2u")).toBe("A");
		expect(decodeKittyPrintable("\x1b[49:33;2u")).toBe("!");
		expect(decodeKittyPrintable("\x1b[97;5u")).toBeUndefined();
	});
});

describe("KeybindingsManager", () => {
	it("disables an action with an empty user list and reports conflicts", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS, {
			"tui.editor.yank": [],
			"tui.editor.undo": "ctrl+z",
			"tui.editor.deleteToLineEnd": "ctrl+z",
		});
		expect(kb.matches("\x19", "tui.editor.yank")).toBe(false);
		expect(kb.matches("\x1a", "tui.editor.undo")).toBe(true);
		expect(kb.getConflicts()).toEqual([
			{ key: "ctrl+z", keybindings: ["tui.editor.undo", "tui.editor.deleteToLineEnd"] },
		]);
		expect(kb.getResolvedBindings()["tui.editor.undo"]).toBe("ctrl+z");
		expect(kb.getResolvedBindings()["tui.select.cancel"]).toEqual(["escape", "ctrl+c"]);
	});
	it("keeps defaults and computes page indices", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS);
		expect(kb.matches("\x1b", "tui.select.cancel")).toBe(true);
		expect(getSelectPageIndex(kb, "\x1b[6~", 2, 10, 5)).toBe(7);
		expect(getSelectPageIndex(kb, "\x1b[5~", 2, 10, 5)).toBe(0);
		expect(getSelectPageIndex(kb, "x", 2, 10, 5)).toBeUndefined();
	});
});
