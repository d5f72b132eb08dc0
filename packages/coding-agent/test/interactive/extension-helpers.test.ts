import { fauxAssistantMessage } from "@tau/ai";
import {
	CustomEditor,
	type ExtensionAPI,
	getLanguageFromPath,
	getMarkdownTheme,
	highlightCode,
	keyHint,
	keyText,
	rawKeyHint,
	Theme,
} from "@tau/coding-agent";
import { type EditorTheme, KeybindingsManager, Markdown, setKeybindings, type TUI, TUI_KEYBINDINGS } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import type { EditorFactory } from "../../src/core/extensions/index.js";
import { REQUIRED_THEME_TOKENS } from "../../src/core/resources/index.js";
import { builtinTheme } from "../../src/core/resources/themes/builtin-theme.js";
import { appKeybindingDefinitions } from "../../src/modes/interactive/keybindings/app-keybindings.js";
import { setActiveTheme } from "../../src/modes/interactive/theme/active-theme.js";
import { editorTheme } from "../../src/modes/interactive/theme/component-themes.js";
import { InteractiveHarness, KEYS } from "./harness.js";

const builtin = builtinTheme();
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

/** An extension's editor: claims Ctrl+K (normally delete to line end), hands every other key to the base class. */
class MarkingEditor extends CustomEditor {
	marks = 0;

	override handleInput(data: string): void {
		if (data === "\x0b") {
			this.marks++;
			return;
		}
		super.handleInput(data);
	}
}

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	// The keybindings manager and the helpers' theme are process-wide; reset them for the next test.
	setKeybindings(new KeybindingsManager(TUI_KEYBINDINGS));
	setActiveTheme(builtin);
});

describe("getLanguageFromPath", () => {
	it("maps extensions (any case, any separator) and well-known file names to a highlight language", () => {
		expect(getLanguageFromPath("src/main.ts")).toBe("typescript");
		expect(getLanguageFromPath("/tmp/App.TSX")).toBe("typescript");
		expect(getLanguageFromPath("scripts/run.mjs")).toBe("javascript");
		expect(getLanguageFromPath("tool.py")).toBe("python");
		expect(getLanguageFromPath("C:\\work\\lib.rs")).toBe("rust");
		expect(getLanguageFromPath("build/install.sh")).toBe("bash");
		expect(getLanguageFromPath("docker/Dockerfile")).toBe("dockerfile");
		expect(getLanguageFromPath("Makefile")).toBe("makefile");
		expect(getLanguageFromPath("/home/me/.bashrc")).toBe("bash");
		expect(getLanguageFromPath("README.md")).toBe("markdown");
	});

	it("is undefined for unknown extensions and names without one", () => {
		expect(getLanguageFromPath("notes.unknownext")).toBeUndefined();
		expect(getLanguageFromPath("LICENSE")).toBeUndefined();
		expect(getLanguageFromPath("src/")).toBeUndefined();
	});
});

describe("highlightCode", () => {
	it("returns one styled string per line with the source text unchanged", () => {
		const code = 'const answer = compute(42);\n// done\nconsole.log("hi");';
		const lines = highlightCode(code, "ts");
		expect(lines).toHaveLength(3);
		expect(lines.map(plain)).toEqual(code.split("\n"));
		expect(lines[0]).not.toBe(code.split("\n")[0]);
	});

	it("colours keywords, calls, numbers, strings and comments with the theme's syntax tokens", () => {
		const [line] = highlightCode('const n = parse("x", 42); // why', "typescript");
		expect(line).toContain(builtin.fg("syntaxKeyword", "const"));
		expect(line).toContain(builtin.fg("syntaxFunction", "parse"));
		expect(line).toContain(builtin.fg("syntaxString", '"x"'));
		expect(line).toContain(builtin.fg("syntaxNumber", "42"));
		expect(line).toContain(builtin.fg("syntaxComment", "// why"));
		// A plain identifier stays unstyled; a keyword of another language is not a keyword here.
		expect(line).toContain(" n ");
		expect(highlightCode("def f(): pass", "python")[0]).toContain(builtin.fg("syntaxKeyword", "def"));
		expect(highlightCode("def f(): pass", "ts")[0]).not.toContain(builtin.fg("syntaxKeyword", "def"));
	});

	it("styles each line of a multi-line comment or string on its own", () => {
		const lines = highlightCode("/* one\ntwo */ x\nlet s = `a\nb`;", "js");
		expect(lines).toHaveLength(4);
		expect(lines[0]).toBe(builtin.fg("syntaxComment", "/* one"));
		expect(lines[1]).toBe(`${builtin.fg("syntaxComment", "two */")} x`);
		expect(lines[3]).toContain(builtin.fg("syntaxString", "b`"));
		const python = highlightCode('x = """doc\nstring"""', "py");
		expect(python[1]).toBe(builtin.fg("syntaxString", 'string"""'));
	});

	it("recognises shell variables and keeps # inside words", () => {
		const [line] = highlightCode(`echo "$HOME" \${USER} a#b # note`, "sh");
		expect(line).toContain(builtin.fg("syntaxVariable", `\${USER}`));
		expect(line).toContain(builtin.fg("syntaxComment", "# note"));
		expect(plain(line!)).toBe(`echo "$HOME" \${USER} a#b # note`);
		expect(line).not.toContain(builtin.fg("syntaxComment", "#b # note"));
	});

	it("accepts the language ids getLanguageFromPath returns, case-insensitively for SQL keywords", () => {
		const language = getLanguageFromPath("query.sql");
		expect(highlightCode("SELECT id FROM users", language)[0]).toContain(builtin.fg("syntaxKeyword", "SELECT"));
	});

	it("highlights fenced code blocks in the transcript's Markdown", () => {
		const markdown = new Markdown("Run:\n\n```ts\nconst x = load();\n```", 0, 0, getMarkdownTheme());
		const lines = markdown.render(60);
		expect(lines.some((line) => line.includes(builtin.fg("syntaxKeyword", "const")))).toBe(true);
		expect(lines.some((line) => line.includes(builtin.fg("syntaxFunction", "load")))).toBe(true);
	});

	it("uses the plain code-block colour for a missing or unknown language", () => {
		expect(highlightCode("a = 1\n\nb", "no-such-language")).toEqual([
			builtin.fg("mdCodeBlock", "a = 1"),
			"",
			builtin.fg("mdCodeBlock", "b"),
		]);
		expect(highlightCode("x")).toEqual([builtin.fg("mdCodeBlock", "x")]);
	});
});

describe("keyText, keyHint and rawKeyHint", () => {
	it("show an app action's default key before the interactive mode installs the user's bindings", () => {
		expect(keyText("app.tools.expand")).toBe("Ctrl+O");
		expect(keyText("tui.select.confirm")).toBe("Enter");
		expect(keyText("app.session.new")).toBe("");
		expect(keyHint("app.session.new", "new session")).toBe("");
		expect(keyHint("app.tools.expand", "expand")).toBe(
			`${builtin.fg("accent", "Ctrl+O")} ${builtin.fg("muted", "expand")}`,
		);
	});

	it("reflect a keybindings.json override once the interactive mode runs", async () => {
		harness = await InteractiveHarness.start({
			agentFiles: {
				"keybindings.json": JSON.stringify({ "app.tools.expand": "ctrl+e", "app.session.new": "alt+n" }),
			},
		});
		expect(keyText("app.tools.expand")).toBe("Ctrl+E");
		expect(keyText("app.session.new")).toBe("Alt+N");
		expect(plain(keyHint("app.tools.expand", "to expand"))).toBe("Ctrl+E to expand");
	});

	it("rawKeyHint formats a literal key the same way", () => {
		expect(rawKeyHint("Enter", "submit")).toBe(`${builtin.fg("accent", "Enter")} ${builtin.fg("muted", "submit")}`);
		expect(plain(rawKeyHint("↑↓", "navigate"))).toBe("↑↓ navigate");
	});
});

describe("CustomEditor", () => {
	it("keeps application keybindings for keys a subclass passes to super.handleInput", () => {
		const keys = new KeybindingsManager(appKeybindingDefinitions("linux", {}));
		const terminal = new VirtualTerminal(80, 24);
		const editor = new MarkingEditor(
			{ requestRender: () => {}, terminal },
			editorTheme(builtin, (t) => t),
			keys,
		);
		const actions: string[] = [];
		editor.onAction = (data) => {
			if (!keys.matches(data, "app.tools.expand")) return false;
			actions.push("expand");
			return true;
		};
		editor.handleInput("\x0b");
		editor.handleInput(KEYS.ctrlO);
		editor.handleInput("h");
		editor.handleInput("i");
		expect(editor.marks).toBe(1);
		expect(actions).toEqual(["expand"]);
		expect(editor.getText()).toBe("hi");
	});

	it("replaces the prompt editor through ctx.ui.setEditorComponent; app keys, submission and the text carry over", async () => {
		let received: { keys: KeybindingsManager; theme: EditorTheme } | undefined;
		const factory: EditorFactory = (tui: TUI, theme: EditorTheme, keys: KeybindingsManager) => {
			received = { keys, theme };
			return new MarkingEditor(tui, theme, keys);
		};
		let current: EditorFactory | undefined;
		harness = await InteractiveHarness.start({
			agentFiles: { "keybindings.json": JSON.stringify({ "app.tools.expand": "ctrl+e" }) },
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("marking", {
					handler: async (_args, ctx) => {
						ctx.ui.setEditorComponent(factory);
						current = ctx.ui.getEditorComponent();
					},
				});
				pi.registerCommand("plain", {
					handler: async (_args, ctx) => {
						ctx.ui.setEditorText("draft");
						ctx.ui.setEditorComponent(undefined);
					},
				});
			},
		});
		const mode = harness.mode;
		harness.submit("/marking");
		await harness.until(() => mode.editor instanceof MarkingEditor);
		const editor = mode.editor as MarkingEditor;
		expect(current).toBe(factory);
		expect(received?.keys.getKeys("app.tools.expand")).toEqual(["ctrl+e"]);
		expect(editor.focused).toBe(true);

		harness.type("hello");
		harness.terminal.press("\x0b");
		expect(editor.marks).toBe(1);
		expect(editor.getText()).toBe("hello");
		// The user's binding for an app action reaches the app through super.handleInput.
		expect(mode.toolsExpanded()).toBe(false);
		harness.terminal.press("\x05");
		expect(mode.toolsExpanded()).toBe(true);
		expect(editor.getText()).toBe("hello");

		harness.faux.appendResponses([fauxAssistantMessage("hi there")]);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.roles().includes("assistant"));
		expect(harness.runtime.session.messages.find((message) => message.role === "user")).toMatchObject({
			content: [{ type: "text", text: "hello" }],
		});
		expect(editor.getText()).toBe("");

		harness.submit("/plain");
		await harness.until(() => !(mode.editor instanceof MarkingEditor));
		expect(mode.editor).toBeInstanceOf(CustomEditor);
		expect(mode.editor.focused).toBe(true);
		expect(mode.editor.getText()).toBe("draft");
	});

	it("highlightCode and keyHint follow a theme set with ctx.ui.setTheme", async () => {
		const values = {
			...Object.fromEntries(REQUIRED_THEME_TOKENS.map((token) => [token, ""])),
			syntaxKeyword: 196,
			accent: 226,
		};
		const theme = new Theme(values as never, values as never, undefined, { name: "contrast" });
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("contrast", { handler: async (_args, ctx) => void ctx.ui.setTheme(theme) });
			},
		});
		expect(highlightCode("const", "ts")).toEqual([builtin.fg("syntaxKeyword", "const")]);
		harness.submit("/contrast");
		const contrast = theme;
		await harness.until(() => highlightCode("const", "ts")[0] === contrast.fg("syntaxKeyword", "const"));
		expect(contrast.fg("syntaxKeyword", "const")).not.toBe(builtin.fg("syntaxKeyword", "const"));
		expect(keyHint("app.tools.expand", "expand")).toBe(
			`${contrast.fg("accent", "Ctrl+O")} ${contrast.fg("muted", "expand")}`,
		);
	});

	it("keeps the current editor when the factory throws, and reports it", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("broken", {
					handler: async (_args, ctx) =>
						ctx.ui.setEditorComponent(() => {
							throw new Error("no editor today");
						}),
				});
			},
		});
		const builtin = harness.mode.editor;
		harness.submit("/broken");
		await harness.until(async () => (await harness!.screen()).includes("Custom editor failed: no editor today"));
		expect(harness.mode.editor).toBe(builtin);
	});
});
