import { CURSOR_MARKER, Editor, renderFakeCursor, setKittyProtocolActive, stripTerminalSequences } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { editorTheme, makeEditor } from "./helpers/editor.js";

afterEach(() => setKittyProtocolActive(false));

const ENTER = "\r";
const UP = "\x1b[A";
const DOWN = "\x1b[B";
const UNDO = "\x1f"; // ctrl+-
const BACKSPACE = "\x7f";

describe("Editor editing", () => {
	it("Enter submits trimmed text and clears the editor", () => {
		const { editor, submitted, type } = makeEditor();
		type("  hello  ");
		editor.handleInput(ENTER);
		expect(submitted).toEqual(["hello"]);
		expect(editor.getText()).toBe("");
	});

	it("Shift+Enter and Ctrl+J insert a newline; backslash + Enter too", () => {
		const { editor, submitted, type } = makeEditor();
		type("a");
		editor.handleInput("\x1b[13;2u"); // shift+enter (Kitty)
		type("b");
		editor.handleInput("\n"); // ctrl+j
		type("c\\");
		editor.handleInput(ENTER);
		type("d");
		expect(editor.getText()).toBe("a\nb\nc\nd");
		expect(submitted).toEqual([]);
		setKittyProtocolActive(true);
		editor.handleInput("\n"); // shift+enter as mapped by terminals with Kitty active
		expect(editor.getLines()).toHaveLength(5);
	});

	it("moves by grapheme and word", () => {
		const { editor, type } = makeEditor();
		type("foo bar.baz 日本");
		editor.handleInput("\x1b[D"); // left over 本
		expect(editor.getCursor().col).toBe("foo bar.baz 日".length);
		editor.handleInput("\x1bb"); // alt+b word left
		expect(editor.getCursor().col).toBe("foo bar.baz ".length);
		editor.handleInput("\x1bb");
		expect(editor.getCursor().col).toBe("foo bar.".length);
		editor.handleInput("\x1bb");
		expect(editor.getCursor().col).toBe("foo bar".length);
		editor.handleInput("\x01");
		editor.handleInput("\x1bf");
		expect(editor.getCursor().col).toBe(3);
	});

	it("undo removes typing in fish-style units; paste undoes in one step", () => {
		const { editor, type } = makeEditor();
		type("hello world");
		editor.handleInput(UNDO);
		expect(editor.getText()).toBe("hello ");
		editor.handleInput(UNDO);
		expect(editor.getText()).toBe("hello");
		editor.handleInput(UNDO);
		expect(editor.getText()).toBe("");
		type("x");
		editor.handleInput("\x1b[200~pasted text\x1b[201~");
		expect(editor.getText()).toBe("xpasted text");
		editor.handleInput(UNDO);
		expect(editor.getText()).toBe("x");
	});

	it("Ctrl+W twice accumulates one kill; Ctrl+Y yanks it; Alt+Y cycles", () => {
		const { editor, type } = makeEditor();
		type("first");
		editor.handleInput("\x17");
		type("one two three");
		editor.handleInput("\x17");
		editor.handleInput("\x17");
		expect(editor.getText()).toBe("one ");
		editor.handleInput("\x19");
		expect(editor.getText()).toBe("one two three");
		editor.handleInput("\x1by");
		expect(editor.getText()).toBe("one first");
		editor.handleInput("\x1by");
		expect(editor.getText()).toBe("one two three");
	});

	it("Ctrl+K at line end joins lines and the kill ring records the line break", () => {
		const { editor, type } = makeEditor();
		type("a");
		editor.handleInput("\n");
		type("b");
		editor.handleInput(UP);
		editor.handleInput("\x05");
		editor.handleInput("\x0b");
		expect(editor.getText()).toBe("ab");
		editor.handleInput("\x19");
		expect(editor.getText()).toBe("a\nb");
	});

	it("pasted or programmatically set text loses terminal controls (C0 and C1), keeping line breaks", () => {
		const { editor } = makeEditor();
		editor.handleInput("\x1b[200~a\x1b]0;t\x07b\x9b2Jc\r\nd\x1b[200~");
		editor.handleInput("\x1b[201~");
		expect(editor.getText()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
		expect(editor.getText()).toContain("\nd");
		editor.setText("x\x1b]52;c;AAAA\x07\x85y");
		expect(editor.getText()).toBe("x]52;c;AAAAy");
	});

	it("pastes of more than 10 lines become a marker expanded on submit", () => {
		const { editor, submitted } = makeEditor();
		const big = Array.from({ length: 11 }, (_, i) => `l${i}`).join("\n");
		editor.handleInput(`\x1b[200~${big}\x1b[201~`);
		expect(editor.getText()).toBe("[paste #1 +11 lines]");
		editor.handleInput(ENTER);
		expect(submitted).toEqual([big]);
	});

	it("backspace removes a marker atomically and renumbers later markers", () => {
		const { editor, submitted, type } = makeEditor();
		const big = (tag: string) => Array.from({ length: 12 }, (_, i) => `${tag}${i}`).join("\n");
		editor.handleInput(`\x1b[200~${big("a")}\x1b[201~`);
		type(" ");
		editor.handleInput(`\x1b[200~${big("b")}\x1b[201~`);
		expect(editor.getText()).toBe("[paste #1 +12 lines] [paste #2 +12 lines]");
		editor.handleInput("\x01"); // to line start
		editor.handleInput("\x1b[C"); // one step moves over the whole marker
		expect(editor.getCursor().col).toBe("[paste #1 +12 lines]".length);
		editor.handleInput(BACKSPACE);
		expect(editor.getText()).toBe(" [paste #1 +12 lines]");
		editor.handleInput(ENTER);
		expect(submitted).toEqual([big("b")]);
	});

	it("a paste of 1001 characters on one line becomes a chars marker", () => {
		const { editor } = makeEditor();
		editor.handleInput(`\x1b[200~${"x".repeat(1001)}\x1b[201~`);
		expect(editor.getText()).toBe("[paste #1 1001 chars]");
	});

	it("a paste split across calls is collected", () => {
		const { editor } = makeEditor();
		editor.handleInput("\x1b[200~ab");
		editor.handleInput("cd\x1b[201~");
		expect(editor.getText()).toBe("abcd");
	});
});

describe("Editor motion", () => {
	it("jump mode moves to the next occurrence of a character; a control key cancels", () => {
		const { editor, type } = makeEditor();
		type("abc abc");
		editor.handleInput("\x01");
		editor.handleInput("\x1d"); // ctrl+] then "c"
		editor.handleInput("c");
		expect(editor.getCursor().col).toBe(2);
		editor.handleInput("\x1d");
		editor.handleInput("c");
		expect(editor.getCursor().col).toBe(6);
		editor.handleInput("\x1b\x1d"); // ctrl+alt+] backward
		editor.handleInput("a");
		expect(editor.getCursor().col).toBe(4);
		editor.handleInput("\x1d");
		editor.handleInput("\x1b[D"); // cancels and moves left
		expect(editor.getCursor().col).toBe(3);
		expect(editor.getText()).toBe("abc abc");
	});

	it("up and down keep a sticky column across shorter lines", () => {
		const { editor } = makeEditor();
		editor.setText("long line here\nab\nanother long line");
		// The cursor starts at the end of line 2 (column 17): that column is remembered.
		editor.handleInput("\x1b[A");
		expect(editor.getCursor()).toEqual({ line: 1, col: 2 });
		editor.handleInput("\x1b[A");
		expect(editor.getCursor()).toEqual({ line: 0, col: 14 });
		editor.handleInput("\x1b[B");
		editor.handleInput("\x1b[B");
		expect(editor.getCursor()).toEqual({ line: 2, col: 17 });
	});

	it("inserts printable Kitty reports as text and ignores Ctrl+C", () => {
		const { editor } = makeEditor();
		editor.handleInput("\x1b[104u");
		editor.handleInput("\x1b[105:73;2u"); // Shift+i with the shifted key reported (flag 4)
		editor.handleInput("\x1b[27;2;33~"); // "!" by xterm's modifyOtherKeys
		editor.handleInput("\x03");
		expect(editor.getText()).toBe("hI!");
	});
});

describe("Editor history", () => {
	it("Up on an empty editor recalls the last entry; Down past the newest restores the draft", () => {
		const { editor, type } = makeEditor();
		editor.addToHistory("older");
		editor.addToHistory("newer");
		editor.handleInput(UP);
		expect(editor.getText()).toBe("newer");
		editor.handleInput(UP);
		expect(editor.getText()).toBe("older");
		editor.handleInput(DOWN);
		expect(editor.getText()).toBe("newer");
		editor.handleInput(DOWN);
		expect(editor.getText()).toBe("");
		type("draft");
		editor.handleInput("\x01");
		editor.handleInput(UP);
		expect(editor.getText()).toBe("newer");
		editor.handleInput(DOWN);
		expect(editor.getText()).toBe("draft");
	});

	it("skips consecutive duplicates and keeps 100 entries", () => {
		const { editor } = makeEditor();
		editor.addToHistory("same");
		editor.addToHistory("same ");
		editor.handleInput(UP);
		editor.handleInput(UP);
		expect(editor.getText()).toBe("same");
		const e2 = makeEditor().editor;
		for (let i = 0; i < 150; i++) e2.addToHistory(`entry ${i}`);
		for (let i = 0; i < 200; i++) e2.handleInput(UP);
		expect(e2.getText()).toBe("entry 50");
	});
});

describe("Editor rendering", () => {
	it("shows at most max(5, 30% of rows) lines and the hidden counts in the borders", () => {
		const { editor } = makeEditor(24);
		editor.setText(Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n"));
		const lines = editor.render(40).map(stripTerminalSequences);
		expect(lines).toHaveLength(7 + 2);
		expect(lines[0]).toContain("↑ 5 more");
		expect(lines[8]).toMatch(/^─+$/);
		editor.handleInput("\x1b[A".repeat(1));
		for (let i = 0; i < 10; i++) editor.handleInput(UP);
		const top = editor.render(40).map(stripTerminalSequences);
		expect(top[0]).toMatch(/^─+$/);
		expect(top[top.length - 1]).toContain("↓ 5 more");
		const tall = makeEditor(50).editor;
		tall.setText(Array.from({ length: 40 }, (_, i) => `l${i}`).join("\n"));
		expect(tall.render(40)).toHaveLength(15 + 2);
		// A short terminal still shows five lines (30% of 10 rows would be 3).
		const short = makeEditor(10).editor;
		short.setText(Array.from({ length: 40 }, (_, i) => `l${i}`).join("\n"));
		const shortLines = short.render(40).map(stripTerminalSequences);
		expect(shortLines).toHaveLength(5 + 2);
		expect(shortLines[0]).toContain("↑ 35 more");
	});

	it("with focus the cursor line contains CURSOR_MARKER before the fake cursor", () => {
		const { editor, type } = makeEditor();
		type("abc");
		editor.handleInput("\x1b[D");
		expect(editor.render(20).join("")).not.toContain(CURSOR_MARKER);
		editor.focused = true;
		const line = editor.render(20)[1]!;
		expect(line).toContain(`ab${CURSOR_MARKER}${renderFakeCursor("c")}`);
	});

	it("wraps long lines by words and keeps every line within the width", () => {
		const editor = new Editor({ requestRender: () => {}, terminal: { rows: 24 } as never }, editorTheme);
		editor.setText("the quick brown fox jumps over the lazy dog");
		const lines = editor.render(12);
		for (const l of lines) expect(stripTerminalSequences(l).length).toBeLessThanOrEqual(12);
		expect(lines.slice(1, -1).map((l) => l.trimEnd())).toEqual([
			"the quick",
			"brown fox",
			"jumps over",
			"the lazy",
			"dog",
		]);
	});
});
