import { KeybindingsManager } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { appKeybindingDefinitions } from "../../src/modes/interactive/keybindings/app-keybindings.js";
import { InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** docs/design/interactive.md#keybindings, Linux defaults, first key first. */
const LINUX_DEFAULTS: Record<string, string[]> = {
	"tui.editor.cursorUp": ["up"],
	"tui.editor.cursorDown": ["down"],
	"tui.editor.historyPrevious": [],
	"tui.editor.historyNext": [],
	"tui.editor.cursorLeft": ["left", "ctrl+b"],
	"tui.editor.cursorRight": ["right", "ctrl+f"],
	"tui.editor.cursorWordLeft": ["alt+left", "ctrl+left", "alt+b"],
	"tui.editor.cursorWordRight": ["alt+right", "ctrl+right", "alt+f"],
	"tui.editor.cursorLineStart": ["home", "ctrl+a"],
	"tui.editor.cursorLineEnd": ["end", "ctrl+e"],
	"tui.editor.jumpForward": ["ctrl+]"],
	"tui.editor.jumpBackward": ["ctrl+alt+]"],
	"tui.editor.pageUp": ["pageUp", "ctrl+pageUp"],
	"tui.editor.pageDown": ["pageDown", "ctrl+pageDown"],
	"tui.editor.deleteCharBackward": ["backspace"],
	"tui.editor.deleteCharForward": ["delete", "ctrl+d"],
	"tui.editor.deleteWordBackward": ["ctrl+w", "alt+backspace"],
	"tui.editor.deleteWordForward": ["alt+d", "alt+delete"],
	"tui.editor.deleteToLineStart": ["ctrl+u"],
	"tui.editor.deleteToLineEnd": ["ctrl+k"],
	"tui.editor.yank": ["ctrl+y"],
	"tui.editor.yankPop": ["alt+y"],
	"tui.editor.undo": ["ctrl+-"],
	"tui.input.newLine": ["shift+enter", "ctrl+j"],
	"tui.input.submit": ["enter"],
	"tui.input.tab": ["tab"],
	"tui.input.copy": ["ctrl+c"],
	"tui.select.up": ["up"],
	"tui.select.down": ["down"],
	"tui.select.pageUp": ["pageUp"],
	"tui.select.pageDown": ["pageDown"],
	"tui.select.confirm": ["enter"],
	"tui.select.cancel": ["escape", "ctrl+c"],
	"tui.altScreen.pageUp": ["pageUp"],
	"tui.altScreen.pageDown": ["pageDown"],
	"tui.altScreen.halfPageUp": [],
	"tui.altScreen.halfPageDown": [],
	"tui.altScreen.lineUp": [],
	"tui.altScreen.lineDown": [],
	"tui.altScreen.previousPrompt": ["ctrl+shift+up", "ctrl+up"],
	"tui.altScreen.nextPrompt": ["ctrl+shift+down", "ctrl+down"],
	"tui.altScreen.search": ["ctrl+shift+f"],
	"tui.altScreen.searchNext": ["enter", "ctrl+g"],
	"tui.altScreen.searchPrevious": ["shift+enter", "ctrl+shift+g"],
	"tui.altScreen.searchClose": ["escape"],
	"tui.altScreen.top": ["ctrl+home"],
	"tui.altScreen.bottom": ["ctrl+end"],
	"app.interrupt": ["escape"],
	"app.clear": ["ctrl+c"],
	"app.exit": ["ctrl+d"],
	"app.suspend": ["ctrl+z"],
	"app.thinking.cycle": ["shift+tab"],
	"app.thinking.save": ["ctrl+s"],
	"app.thinking.toggle": ["ctrl+t"],
	"app.model.cycleForward": ["ctrl+p"],
	"app.model.cycleBackward": ["shift+ctrl+p"],
	"app.model.select": ["ctrl+l"],
	"app.models.save": ["ctrl+s"],
	"app.models.enableAll": ["ctrl+a"],
	"app.models.clearAll": ["ctrl+x"],
	"app.models.toggleProvider": ["ctrl+p"],
	"app.models.reorderUp": ["alt+up"],
	"app.models.reorderDown": ["alt+down"],
	"app.tools.expand": ["ctrl+o"],
	"app.editor.external": ["ctrl+g"],
	"app.message.copy": ["ctrl+x"],
	"app.message.followUp": ["alt+enter"],
	"app.message.dequeue": ["alt+up"],
	"app.clipboard.pasteImage": ["ctrl+v"],
	"app.session.new": [],
	"app.session.tree": [],
	"app.session.fork": [],
	"app.session.resume": [],
	"app.session.togglePath": ["ctrl+p"],
	"app.session.toggleSort": ["ctrl+s"],
	"app.session.toggleNamedFilter": ["ctrl+n"],
	"app.session.rename": ["ctrl+r"],
	"app.session.delete": ["ctrl+d"],
	"app.session.deleteNoninvasive": ["ctrl+backspace"],
	"app.tree.foldOrUp": ["ctrl+left", "alt+left"],
	"app.tree.unfoldOrDown": ["ctrl+right", "alt+right"],
	"app.tree.editLabel": ["shift+l"],
	"app.tree.toggleLabelTimestamp": ["shift+t"],
	"app.tree.filter.default": ["ctrl+d"],
	"app.tree.filter.noTools": ["ctrl+t"],
	"app.tree.filter.userOnly": ["ctrl+u"],
	"app.tree.filter.labeledOnly": ["ctrl+l"],
	"app.tree.filter.all": ["ctrl+a"],
	"app.tree.filter.cycleForward": ["ctrl+o"],
	"app.tree.filter.cycleBackward": ["shift+ctrl+o"],
};

describe("default key bindings (docs/design/interactive.md#keybindings)", () => {
	it("every action of the tables has its Linux default, and nothing else is defined", () => {
		const definitions = appKeybindingDefinitions("linux", {});
		const manager = new KeybindingsManager(definitions);
		for (const [action, keys] of Object.entries(LINUX_DEFAULTS))
			expect([action, manager.getKeys(action)]).toEqual([action, keys]);
		expect(Object.keys(definitions).sort()).toEqual(Object.keys(LINUX_DEFAULTS).sort());
	});

	it("native Windows and macOS differ where the tables say", () => {
		const windows = new KeybindingsManager(appKeybindingDefinitions("win32", {}));
		expect(windows.getKeys("app.suspend")).toEqual([]);
		expect(windows.getKeys("tui.editor.undo")).toEqual(["ctrl+z"]);
		expect(windows.getKeys("app.model.cycleBackward")).toEqual(["alt+p"]);
		expect(windows.getKeys("app.message.followUp")).toEqual(["ctrl+q"]);
		expect(windows.getKeys("app.message.dequeue")).toEqual(["alt+q"]);
		expect(windows.getKeys("app.clipboard.pasteImage")).toEqual(["alt+v", "ctrl+v"]);
		expect(windows.getKeys("tui.altScreen.previousPrompt")).toEqual(["ctrl+up"]);
		expect(windows.getKeys("tui.altScreen.nextPrompt")).toEqual(["ctrl+down"]);
		expect(windows.getKeys("tui.altScreen.search")).toEqual(["ctrl+f"]);
		const mac = new KeybindingsManager(appKeybindingDefinitions("darwin", {}));
		expect(mac.getKeys("app.tree.foldOrUp")).toEqual(["alt+left", "ctrl+left"]);
		expect(mac.getKeys("app.tree.unfoldOrDown")).toEqual(["alt+right", "ctrl+right"]);
		expect(mac.getKeys("app.suspend")).toEqual(["ctrl+z"]);
	});
});

describe("keybindings.json conflicts (docs/design/interactive.md#keybindings)", () => {
	it("a key claimed by two user-configured actions is reported by /hotkeys", async () => {
		harness = await InteractiveHarness.start({
			agentFiles: {
				"keybindings.json": JSON.stringify({
					"app.model.select": "ctrl+k",
					"app.tools.expand": ["ctrl+k", "ctrl+o"],
				}),
			},
		});
		harness.submit("/hotkeys");
		expect(await harness.screen()).toMatch(
			/Key ctrl\+k is bound to (app\.model\.select, app\.tools\.expand|app\.tools\.expand, app\.model\.select)/,
		);
	});
});
