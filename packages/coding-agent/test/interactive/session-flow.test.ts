import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { gatedStep, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("interactive session flow", () => {
	it("streams the answer and renders a tool call with its result", async () => {
		harness = await InteractiveHarness.start();
		writeFileSync(join(harness.cwd, "notes.txt"), "alpha line\nbeta line\n");
		harness.faux.setResponses([
			fauxAssistantMessage(
				[fauxText("Let me look."), fauxToolCall("read", { path: "notes.txt" }, { id: "call-1" })],
				{
					stopReason: "toolUse",
				},
			),
			fauxAssistantMessage("The file has **two** lines."),
		]);
		const since = harness.eventCount;
		harness.submit("what is in notes.txt?");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const screen = await harness.screen();
		expect(screen).toContain("what is in notes.txt?");
		expect(screen).toContain("Let me look.");
		expect(screen).toContain("read notes.txt");
		expect(screen).toContain("alpha line");
		expect(screen).toContain("The file has two lines.");
	});

	it("queues steering and follow-up while streaming, and Escape restores them and aborts", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("never shown"));
		harness.faux.setResponses([gate.step]);
		const since = harness.eventCount;
		harness.submit("first task");
		await gate.started;
		harness.submit("steer me");
		await harness.waitForEvent((event) => event.type === "queue_update", since);
		harness.type("later please");
		harness.terminal.press(KEYS.altEnter);
		await harness.settleMicrotasks();
		let screen = await harness.screen();
		expect(screen).toContain("Steering: steer me");
		expect(screen).toContain("Follow-up: later please");
		expect(screen).toMatch(/↳ Alt\+Up to edit all queued messages/);

		harness.type("draft");
		harness.terminal.press(KEYS.escape);
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		screen = await harness.screen();
		expect(harness.mode.editor.getText()).toBe("steer me\n\nlater please\n\ndraft");
		expect(screen).toContain("Operation aborted");
		expect(screen).not.toContain("Steering: steer me");
	});

	it("Alt+Enter while idle submits like Enter", async () => {
		harness = await InteractiveHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("idle follow-up answer")]);
		const since = harness.eventCount;
		harness.type("hello there");
		harness.terminal.press(KEYS.altEnter);
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(await harness.screen()).toContain("idle follow-up answer");
	});

	it("hides thinking behind a label and Ctrl+T shows it", async () => {
		harness = await InteractiveHarness.start({ settings: { hideThinkingBlock: true } });
		harness.faux.setResponses([fauxAssistantMessage([fauxThinking("secret reasoning"), fauxText("visible answer")])]);
		const since = harness.eventCount;
		harness.submit("think");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		let screen = await harness.screen();
		expect(screen).toContain("Thinking...");
		expect(screen).not.toContain("secret reasoning");
		harness.terminal.press("\x14");
		screen = await harness.screen();
		expect(screen).toContain("secret reasoning");
	});

	it("shows a provider error as an explicit status line", async () => {
		harness = await InteractiveHarness.start();
		harness.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "boom from provider" }),
		]);
		const since = harness.eventCount;
		harness.submit("fail please");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(await harness.screen()).toContain("Error: boom from provider");
	});
});
