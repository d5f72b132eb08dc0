import { fauxAssistantMessage, fauxText } from "@tau/ai";
import { type TUI, TuiAltScreen, TuiMainScreen } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { builtinTheme } from "../../src/core/resources/themes/builtin-theme.js";
import { AssistantMessageView } from "../../src/modes/interactive/components/assistant-message.js";

const theme = builtinTheme();

/** A highlighted code block with lines that wrap and a raw escape sequence, then a wrapping paragraph. */
const ANSWER = [
	"Here is the module:",
	"",
	"```python",
	"import math",
	"class Shape:",
	'    """A docstring long enough to wrap at forty columns of the terminal."""',
	"    def area(self) -> float:",
	"        return self.width * 2  # \x1b[31mnot a colour\x1b[0m",
	"```",
	"",
	"After the **code**, a paragraph that wraps over several lines of the terminal width.",
].join("\n");

type Mode = "regular" | "fullscreen";

/**
 * What the terminal shows after drawing `prefixes` and then the whole answer: every row's text
 * (scrollback included) and every visible cell's style. The terminal narrows from 44 to 40 columns
 * half-way (before the answer, when there are no prefixes), so width-keyed reuse is exercised too.
 */
async function drawn(mode: Mode, prefixes: readonly string[]): Promise<{ rows: string[]; styles: string[] }> {
	const rows = mode === "regular" ? 10 : 40;
	const term = new VirtualTerminal(44, rows);
	const tui: TUI = mode === "regular" ? new TuiMainScreen(term) : new TuiAltScreen(term);
	const view = new AssistantMessageView(theme, { hideThinking: false, hiddenThinkingLabel: "Thinking..." });
	tui.addChild(view);
	tui.start();
	prefixes.forEach((text, i) => {
		if (i === prefixes.length >> 1) term.resize(40, rows);
		view.updateContent(fauxAssistantMessage([fauxText(text)]), true);
		tui.renderNow();
	});
	if (prefixes.length === 0) term.resize(40, rows);
	view.updateContent(fauxAssistantMessage([fauxText(ANSWER)]), false);
	tui.renderNow();
	await term.flush();
	const viewport = term.getViewport();
	const styles = viewport.map((_, row) =>
		JSON.stringify(Array.from({ length: 40 }, (_, col) => term.getCellStyle(row, col))),
	);
	const shown = [...term.getScrollback(), ...viewport];
	tui.stop();
	return { rows: shown, styles };
}

describe("a streamed answer on screen", () => {
	for (const mode of ["regular", "fullscreen"] as const) {
		it(`ends as the same answer drawn at once (${mode}), every prefix drawn on the way`, async () => {
			// Every prefix: lines cut anywhere, the escape sequence cut after each of its characters.
			const prefixes = Array.from({ length: ANSWER.length }, (_, i) => ANSWER.slice(0, i + 1));
			const streamed = await drawn(mode, prefixes);
			const atOnce = await drawn(mode, []);
			expect(streamed.rows.join("\n")).toContain("a colour");
			expect(streamed.rows).toEqual(atOnce.rows);
			expect(streamed.styles).toEqual(atOnce.styles);
		});
	}
});
