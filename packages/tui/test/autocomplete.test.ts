import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
	CombinedAutocompleteProvider,
	Editor,
	fuzzyFilter,
	fuzzyMatch,
	type SlashCommand,
	stripTerminalSequences,
	TuiAltScreen,
} from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Lines, numbered } from "./helpers/components.js";
import { editorTheme, makeEditor } from "./helpers/editor.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

const commands: SlashCommand[] = [
	{ name: "model", description: "Switch model", argumentHint: "<name>" },
	{ name: "mcp", description: "MCP servers" },
	{ name: "help", description: "Show help" },
	{
		name: "thinking",
		description: "Thinking level",
		getArgumentCompletions: (prefix) =>
			["low", "medium", "high"].filter((v) => v.startsWith(prefix)).map((v) => ({ value: v, label: v })),
	},
];

/** Lets pending provider promises settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function project() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-ac-"));
	fs.mkdirSync(path.join(dir, "src"));
	fs.writeFileSync(path.join(dir, "src", "main.ts"), "");
	fs.writeFileSync(path.join(dir, "README.md"), "");
	return dir;
}

afterEach(() => {
	vi.useRealTimers();
});

describe("Editor autocomplete", () => {
	it("typing / at the start opens the command menu; Enter completes the name and submits", async () => {
		const { editor, submitted, type } = makeEditor();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, project()));
		type("/");
		await settle();
		expect(editor.isShowingAutocomplete()).toBe(true);
		type("hel");
		await settle();
		const menu = editor.render(60).map(stripTerminalSequences);
		expect(menu.some((l) => l.includes("→ help"))).toBe(true);
		editor.handleInput("\r");
		expect(submitted).toEqual(["/help"]);
	});

	it("Escape closes the menu without clearing the text", async () => {
		const { editor, type } = makeEditor();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, project()));
		type("/m");
		await settle();
		expect(editor.isShowingAutocomplete()).toBe(true);
		editor.handleInput("\x1b");
		expect(editor.isShowingAutocomplete()).toBe(false);
		expect(editor.getText()).toBe("/m");
	});

	it("PageDown with the menu open moves the selection and captures viewport input", async () => {
		const { editor, type } = makeEditor();
		const many = Array.from({ length: 12 }, (_, i) => ({ name: `cmd${String(i).padStart(2, "0")}` }));
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(many, project()));
		type("/");
		await settle();
		expect(editor.capturesViewportInput).toBe(true);
		editor.handleInput("\x1b[6~");
		const lines = editor.render(60).map(stripTerminalSequences);
		expect(lines.some((l) => l.startsWith("→ cmd05"))).toBe(true);
		expect(editor.getText()).toBe("/");
		editor.handleInput("\x1b");
		expect(editor.capturesViewportInput).toBe(false);
	});

	it("on the alternate screen, PageDown with the menu open pages the menu, not the transcript", async () => {
		const term = new VirtualTerminal(60, 20);
		const tui = new TuiAltScreen(term);
		tui.addChild(new Lines(numbered(40)));
		const editor = new Editor(tui, editorTheme);
		const many = Array.from({ length: 12 }, (_, i) => ({ name: `cmd${String(i).padStart(2, "0")}` }));
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(many, project()));
		tui.addChild(editor);
		tui.setFocus(editor);
		tui.start();
		term.sendInput("\x1b[5~"); // scroll the transcript up first so a PageDown could move it
		term.sendInput("/");
		await settle();
		tui.renderNow();
		await term.flush();
		const before = term.getViewport();
		expect(before.some((l) => l.startsWith("→ cmd00"))).toBe(true);
		term.sendInput("\x1b[6~");
		tui.renderNow();
		await term.flush();
		const after = term.getViewport();
		expect(after.some((l) => l.startsWith("→ cmd05"))).toBe(true);
		expect(after[0]).toBe(before[0]);
		tui.stop();
	});

	it("Enter in a path menu only completes", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		const { editor, submitted, type } = makeEditor();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, project()));
		type("see @READ");
		await vi.advanceTimersByTimeAsync(20);
		await settle();
		expect(editor.isShowingAutocomplete()).toBe(true);
		editor.handleInput("\r");
		expect(submitted).toEqual([]);
		// A completed file reference is followed by a space, so the next word can be typed at once.
		expect(editor.getText()).toBe("see @README.md ");
	});

	it("Tab completes a path; a directory keeps the menu open", async () => {
		const dir = project();
		const { editor, type } = makeEditor();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, dir));
		type("./sr");
		editor.handleInput("\t");
		await settle();
		expect(editor.isShowingAutocomplete()).toBe(true);
		editor.handleInput("\t");
		expect(editor.getText()).toBe("./src/");
		await settle();
		expect(editor.isShowingAutocomplete()).toBe(true);
		editor.handleInput("\t");
		expect(editor.getText()).toBe("./src/main.ts");
	});

	it("offers argument completions after the command name", async () => {
		const { editor, type } = makeEditor();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, project()));
		type("/thinking ");
		editor.handleInput("\t");
		await settle();
		editor.handleInput("\x1b[B");
		editor.handleInput("\t");
		expect(editor.getText()).toBe("/thinking medium");
	});
});

describe("fuzzy matching", () => {
	it("prefers consecutive and boundary matches and filters by all tokens", () => {
		expect(fuzzyMatch("mdl", "model").matches).toBe(true);
		expect(fuzzyMatch("xyz", "model")).toEqual({ matches: false, score: 0 });
		expect(fuzzyMatch("model", "model").score).toBeLessThan(-100);
		expect(fuzzyMatch("mod", "model").score).toBeLessThan(fuzzyMatch("mod", "my_old_doc").score);
		expect(fuzzyMatch("opus4", "claude-4-opus").matches).toBe(true);
		const files = ["src/main.ts", "src/tui/main-screen.ts", "README.md"];
		expect(fuzzyFilter(files, "tui main", (f) => f)).toEqual(["src/tui/main-screen.ts"]);
		expect(fuzzyFilter(files, "", (f) => f)).toEqual(files);
	});
});
