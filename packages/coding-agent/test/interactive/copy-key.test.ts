import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness } from "./harness.js";

const CTRL_X = "\x18";
const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
const sgrMouse = (button: number, x: number, y: number, release = false) =>
	`\x1b[<${button};${x + 1};${y + 1}${release ? "m" : "M"}`;

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

async function answer(h: InteractiveHarness, prompt: string, reply: string): Promise<void> {
	h.faux.setResponses([fauxAssistantMessage(reply)]);
	const since = h.eventCount;
	h.submit(prompt);
	await h.waitForEvent((event) => event.type === "agent_settled", since);
}

describe("Ctrl+X (app.message.copy)", () => {
	it("copies the last assistant text, or says there is none yet", async () => {
		harness = await InteractiveHarness.start();
		harness.terminal.press(CTRL_X);
		expect(await harness.screen()).toContain("No agent messages to copy yet.");
		await answer(harness, "question", "the answer to copy");
		harness.terminal.press(CTRL_X);
		expect(await harness.screen()).toContain("Copied last agent message to clipboard");
		expect(harness.terminal.getRawOutput()).toContain(osc52("the answer to copy"));
	});

	it("fullscreen without copy-on-select: a drag selection is copied by Ctrl+X instead of the last answer", async () => {
		harness = await InteractiveHarness.start({
			mode: { tuiMode: "fullscreen" },
			settings: { fullscreenCopyOnSelect: false },
		});
		await answer(harness, "question", "alpha selectable omega");
		const viewport = await harness.viewport();
		const row = viewport.findIndex((line) => line.includes("alpha selectable omega"));
		const column = viewport[row]!.indexOf("selectable");
		harness.terminal.press(sgrMouse(0, column, row));
		harness.terminal.press(sgrMouse(32, column + "selectable".length, row));
		harness.terminal.press(sgrMouse(0, column + "selectable".length, row, true));
		await harness.screen();
		expect(harness.terminal.getRawOutput()).not.toContain(osc52("selectable"));

		harness.terminal.press(CTRL_X);
		await harness.until(() => harness!.terminal.getRawOutput().includes(osc52("selectable")));
		expect(harness.terminal.getRawOutput()).not.toContain(osc52("alpha selectable omega"));
		expect(await harness.screen()).toContain("Copied!");
	});
});
