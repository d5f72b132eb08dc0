import { fauxAssistantMessage } from "@tau/ai";
import { resetCapabilitiesCache, setCapabilities } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness } from "./harness.js";

const PAGE_UP = "\x1b[5~";
const CTRL_P = "\x10";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	resetCapabilitiesCache();
});

async function converse(h: InteractiveHarness, turns: number): Promise<void> {
	h.faux.setResponses(Array.from({ length: turns }, (_, i) => fauxAssistantMessage(`reply number ${i}`)));
	for (let i = 0; i < turns; i++) {
		const since = h.eventCount;
		h.submit(`prompt ${i}`);
		await h.waitForEvent((event) => event.type === "agent_settled", since);
	}
}

describe("fullscreen transcript (docs/design/interactive.md#layout)", () => {
	it("scrolled up, the indicator names the tui.altScreen.bottom key", async () => {
		harness = await InteractiveHarness.start({
			mode: { tuiMode: "fullscreen" },
			rows: 20,
			agentFiles: { "keybindings.json": JSON.stringify({ "tui.altScreen.bottom": ["ctrl+b", "ctrl+end"] }) },
		});
		await converse(harness, 6);
		expect((await harness.viewport()).join("\n")).not.toContain("Jump to latest message");
		harness.terminal.press(PAGE_UP);
		expect((await harness.viewport()).join("\n")).toContain("↓ Jump to latest message · Ctrl+B");
	});
});

describe("links in the fullscreen transcript (docs/design/interactive.md#layout)", () => {
	it("clicking an OSC 8 link opens its URL", async () => {
		setCapabilities({ images: null, trueColor: true, hyperlinks: true });
		const opened: string[] = [];
		harness = await InteractiveHarness.start({
			mode: { tuiMode: "fullscreen", openUrl: (url) => opened.push(url) },
			rows: 20,
		});
		harness.faux.setResponses([fauxAssistantMessage("Read [the guide](https://example.com/guide) first.")]);
		const since = harness.eventCount;
		harness.submit("where are the docs?");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const viewport = await harness.viewport();
		const row = viewport.findIndex((line) => line.includes("the guide"));
		const column = viewport[row]!.indexOf("the guide") + 2;
		harness.terminal.press(`\x1b[<0;${column + 1};${row + 1}M`);
		harness.terminal.press(`\x1b[<0;${column + 1};${row + 1}m`);
		await harness.screen();
		expect(opened).toEqual(["https://example.com/guide"]);
	});
});

describe("history keys (docs/design/interactive.md#submission-and-keys)", () => {
	it("an explicitly bound tui.editor.historyPrevious wins over the application action on the same key", async () => {
		harness = await InteractiveHarness.start({
			models: [{ id: "alpha" }, { id: "beta" }],
			agentFiles: { "keybindings.json": JSON.stringify({ "tui.editor.historyPrevious": "ctrl+p" }) },
		});
		await converse(harness, 1);
		const model = harness.runtime.session.model?.id;
		harness.terminal.press(CTRL_P);
		await harness.settleMicrotasks();
		expect(harness.mode.editor.getText()).toBe("prompt 0");
		expect(harness.runtime.session.model?.id).toBe(model);
	});
});
