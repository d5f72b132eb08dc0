import {
	type Component,
	CURSOR_MARKER,
	Editor,
	type Focusable,
	Input,
	renderFakeCursor,
	TuiAltScreen,
	TuiMainScreen,
} from "@tau/tui";
import { describe, expect, it } from "vitest";
import { Lines, numbered } from "./helpers/components.js";
import { editorTheme } from "./helpers/editor.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

/** A focusable component that draws its cursor past its own width (a misbehaving overlay child). */
class WideCursor implements Component, Focusable {
	focused = true;
	render(width: number): readonly string[] {
		return [`${"日".repeat(width)}${CURSOR_MARKER}${renderFakeCursor("本")}`];
	}
	invalidate(): void {}
}

const renderers = [
	["main screen", TuiMainScreen],
	["alternate screen", TuiAltScreen],
] as const;

describe("terminal output is well-formed", () => {
	for (const [name, Renderer] of renderers) {
		for (const hardware of [false, true]) {
			it(`${name}, hardware cursor ${hardware ? "on" : "off"}: no private marker or malformed sequence reaches the terminal`, async () => {
				const term = new VirtualTerminal(30, 8);
				const tui = new Renderer(term, hardware);
				tui.addChild(new Lines(numbered(12, "日本語")));
				const editor = new Editor(tui, editorTheme);
				editor.setText("漢字のテキスト\n二行目");
				tui.addChild(editor);
				tui.setFocus(editor);
				tui.start();
				tui.renderNow();
				await term.flush();

				const input = new Input();
				input.setValue("入力テキスト");
				tui.showOverlay(input, { width: 9, row: 6, col: 3 });
				tui.renderNow();
				await term.flush();

				tui.showOverlay(new WideCursor(), { width: 5, row: 1, col: 1 });
				tui.renderNow();
				await term.flush();

				tui.stop();
				await term.flush();
				expect(term.outputErrors).toEqual([]);
			});
		}
	}
});
