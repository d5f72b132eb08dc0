import { Markdown, Text, TuiMainScreen, visibleWidth } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { plainMarkdownTheme } from "./helpers/themes.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

describe("CJK and ANSI layout on a real terminal emulator", () => {
	it("wrapped CJK text occupies exactly the columns the width functions predict", async () => {
		const term = new VirtualTerminal(12, 6);
		const tui = new TuiMainScreen(term);
		tui.addChild(new Text("日本語のテキストを表示します", 1, 0));
		tui.addChild(new Text("\x1b[1;31mbold red text wraps\x1b[0m", 1, 0));
		tui.start();
		tui.renderNow();
		await term.flush();
		const rows = term.getViewport();
		expect(rows.slice(0, 3)).toEqual([" 日本語のテ", " キストを表", " 示します"]);
		for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(12);
		expect(rows[3]).toBe(" bold red");
		expect(rows[4]).toBe(" text wraps");
		// The style is re-opened on the wrapped line.
		expect(term.getCellStyle(4, 1)).toMatchObject({ bold: true });
		expect(term.getCellStyle(4, 1).fg).not.toBe(-1);
		tui.stop();
	});

	it("a streamed markdown table stays within the terminal width", async () => {
		const term = new VirtualTerminal(30, 12);
		const tui = new TuiMainScreen(term);
		const md = new Markdown("", 0, 0, plainMarkdownTheme);
		tui.addChild(md);
		tui.start();
		const table = "| name | 説明 |\n|---|---|\n| alpha | 最初の文字です |\n| beta | second letter of the alphabet |";
		for (let i = 1; i <= table.length; i += 7) {
			md.setText(table.slice(0, i));
			tui.renderNow();
		}
		md.setText(table);
		tui.renderNow();
		await term.flush();
		const rows = term.getViewport().filter((r) => r !== "");
		expect(rows[0]!.startsWith("┌")).toBe(true);
		expect(rows.some((r) => r.includes("最初の文字"))).toBe(true);
		for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(30);
		tui.stop();
	});
});
