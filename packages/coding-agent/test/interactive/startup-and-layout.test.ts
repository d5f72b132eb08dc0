import { type FauxResponseStep, fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { gatedStep, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("startup and layout", () => {
	it("shows the collapsed header; Ctrl+O expands it with one hint per line and the startup details", async () => {
		harness = await InteractiveHarness.start({ mode: { startupDetails: ["Extensions: demo.ts"] } });
		let screen = await harness.screen();
		expect(screen).toMatch(/tau v\d+\.\d+\.\d+/);
		expect(screen).toContain("Escape interrupt · Ctrl+C/Ctrl+D clear/exit · / commands · ! bash · Ctrl+O more");
		expect(screen).toContain("Press Ctrl+O to show full startup help and loaded resources.");
		expect(screen).not.toContain("Extensions: demo.ts");
		harness.terminal.press(KEYS.ctrlO);
		screen = await harness.screen();
		expect(screen).toContain("Ctrl+C twice to exit");
		expect(screen).toContain("!! to run bash (no context)");
		expect(screen).toContain("Extensions: demo.ts");
	});

	it("quietStartup hides the header", async () => {
		harness = await InteractiveHarness.start({ settings: { quietStartup: true } });
		expect(await harness.screen()).not.toContain("clear/exit");
	});

	it("sends the initial message and then each remaining message; shows startup diagnostics", async () => {
		harness = await InteractiveHarness.start({
			responses: [fauxAssistantMessage("answer one"), fauxAssistantMessage("answer two")],
			mode: {
				initialMessage: "first prompt",
				messages: ["second prompt"],
				diagnostics: [{ type: "warning", message: "settings.json has an unknown key" }],
			},
		});
		await harness.until(() => harness!.roles().length === 4);
		const screen = await harness.screen();
		expect(screen).toContain("Warning: settings.json has an unknown key");
		expect(screen.indexOf("first prompt")).toBeLessThan(screen.indexOf("answer one"));
		expect(screen.indexOf("answer one")).toBeLessThan(screen.indexOf("second prompt"));
		expect(screen.indexOf("second prompt")).toBeLessThan(screen.indexOf("answer two"));
	});

	it("fullscreen: alternate screen with the transcript above and editor plus footer docked at the bottom", async () => {
		harness = await InteractiveHarness.start({ mode: { tuiMode: "fullscreen" }, rows: 20 });
		await harness.screen();
		expect(harness.terminal.isAltScreenActive()).toBe(true);
		const replies = Array.from({ length: 6 }, (_, i) => fauxAssistantMessage(`reply number ${i}`));
		harness.faux.setResponses(replies);
		for (let i = 0; i < 6; i++) {
			const since = harness.eventCount;
			harness.submit(`prompt ${i}`);
			await harness.waitForEvent((event) => event.type === "agent_settled", since);
		}
		const lines = await harness.viewport();
		expect(lines).toHaveLength(20);
		// The transcript follows the end: the latest reply is visible, the first prompt scrolled away.
		expect(lines.join("\n")).toContain("reply number 5");
		expect(lines.join("\n")).not.toContain("prompt 0");
		// Footer on the last two rows, the empty editor (border, text row, border) right above.
		expect(lines[19]).toMatch(/%\/128k \(auto\)\s+faux-1$/);
		expect(lines[18]).toMatch(/\/project$/);
		expect(lines.slice(15, 18).map((line) => line.replace(/^─+$/, "border"))).toEqual(["border", "", "border"]);
	});

	it("Ctrl+O expands tool output; collapsed output keeps the last lines", async () => {
		harness = await InteractiveHarness.start();
		harness.faux.setResponses([
			fauxAssistantMessage(
				fauxToolCall("bash", { command: "for i in $(seq 0 14); do echo line-$i; done" }, { id: "b1" }),
				{
					stopReason: "toolUse",
				},
			),
			fauxAssistantMessage("done"),
		]);
		const since = harness.eventCount;
		harness.submit("run it");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		let screen = await harness.screen();
		expect(screen).toContain("line-14");
		expect(screen).not.toMatch(/line-0\b/);
		expect(screen).toContain("more lines, Ctrl+O to expand");
		harness.terminal.press(KEYS.ctrlO);
		screen = await harness.screen();
		expect(screen).toMatch(/line-0\b/);
	});

	it("a message typed during compaction is queued and sent when it ends", async () => {
		harness = await InteractiveHarness.start({ settings: { compaction: { keepRecentTokens: 1 } } });
		let since = harness.eventCount;
		for (const word of ["hello", "again"]) {
			harness.faux.setResponses([fauxAssistantMessage(`reply to ${word}`)]);
			since = harness.eventCount;
			harness.submit(word);
			await harness.waitForEvent((event) => event.type === "agent_settled", since);
		}
		const summary = gatedStep(fauxAssistantMessage("## Summary\nuser said hello"));
		// Compaction may make more than one summary call; the queued prompt gets the real answer.
		const reply: FauxResponseStep = (context) =>
			fauxAssistantMessage(
				JSON.stringify(context.messages).includes("queued during compaction")
					? "after compaction"
					: "## More summary",
			);
		harness.faux.setResponses([summary.step, reply, reply, reply]);
		since = harness.eventCount;
		harness.submit("/compact");
		await summary.started;
		let screen = await harness.screen();
		expect(screen).toContain("Compacting context... (Escape to cancel)");
		harness.submit("queued during compaction");
		screen = await harness.screen();
		expect(screen).toContain("Queued message for after compaction");
		expect(screen).toContain("Queued for after compaction: queued during compaction");
		summary.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		screen = await harness.screen();
		expect(screen).toContain("[compaction]");
		expect(screen).toMatch(/Compacted from [\d,]+ tokens \(Ctrl\+O to expand\)/);
		expect(screen).toContain("after compaction");
		expect(harness.roles().slice(-2)).toEqual(["user", "assistant"]);
	});
});

describe("editor border", () => {
	it("uses the bash-mode colour while the text starts with ! and the thinking colour otherwise", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		const borderRow = async () => {
			const lines = await harness!.viewport();
			return lines.findIndex((line) => /^─+$/.test(line));
		};
		const row = await borderRow();
		const thinkingColour = harness.terminal.getCellStyle(row, 0).fg;
		harness.type("!ls");
		await harness.screen();
		const bashColour = harness.terminal.getCellStyle(await borderRow(), 0).fg;
		expect(bashColour).not.toBe(thinkingColour);
		harness.terminal.press(KEYS.escape);
		await harness.screen();
		expect(harness.terminal.getCellStyle(await borderRow(), 0).fg).toBe(thinkingColour);
		harness.terminal.press("\x1b[Z");
		await harness.screen();
		expect(harness.terminal.getCellStyle(await borderRow(), 0).fg).not.toBe(thinkingColour);
	});
});

describe("renderer switch", () => {
	it("/settings switches regular → fullscreen live, keeping the transcript, focus and input", async () => {
		harness = await InteractiveHarness.start({ settings: { tuiMode: "regular" } });
		harness.faux.setResponses([fauxAssistantMessage("before the switch"), fauxAssistantMessage("after the switch")]);
		let since = harness.eventCount;
		harness.submit("first");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.terminal.isAltScreenActive()).toBe(false);
		harness.submit("/settings");
		await harness.screen();
		harness.type("TUI mode");
		harness.terminal.press(KEYS.enter);
		await harness.screen();
		expect(harness.terminal.isAltScreenActive()).toBe(true);
		expect(harness.mode.tui.mode).toBe("fullscreen");
		expect(harness.runtime.session.settingsManager.getTuiMode()).toBe("fullscreen");
		// The settings list is still focused on the new renderer; Escape closes it.
		harness.terminal.press(KEYS.escape);
		since = harness.eventCount;
		harness.submit("second");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const screen = (await harness.viewport()).join("\n");
		expect(screen).toContain("before the switch");
		expect(screen).toContain("after the switch");
	});
});
