import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { gatedStep, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("editor submission pipeline (docs/design/interactive.md#submission-and-keys)", () => {
	it("a built-in command runs at once while the agent streams; other text is queued as steering", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("done"));
		harness.faux.setResponses([gate.step, fauxAssistantMessage("steered")]);
		const since = harness.eventCount;
		harness.submit("long task");
		await gate.started;
		harness.submit("/name while streaming");
		await harness.until(() => harness!.runtime.session.sessionName === "while streaming");
		expect(await harness.screen()).toContain("Session name set: while streaming");
		expect(harness.runtime.session.getSteeringMessages()).toEqual([]);
		harness.submit("steer now");
		await harness.until(() => harness!.runtime.session.getSteeringMessages().includes("steer now"));
		expect(harness.mode.editor.getText()).toBe("");
		gate.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
	});

	it("an extension command typed during compaction runs immediately instead of being queued", async () => {
		let ran = 0;
		harness = await InteractiveHarness.start({
			settings: { compaction: { keepRecentTokens: 1 } },
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("ping", {
					handler: async (_args, ctx) => {
						ran++;
						ctx.ui.notify("pong", "info");
					},
				});
			},
		});
		for (const word of ["hello", "again"]) {
			harness.faux.setResponses([fauxAssistantMessage(`reply to ${word}`)]);
			const since = harness.eventCount;
			harness.submit(word);
			await harness.waitForEvent((event) => event.type === "agent_settled", since);
		}
		const summary = gatedStep(fauxAssistantMessage("## Summary\nuser said hello"));
		harness.faux.setResponses([summary.step, fauxAssistantMessage("## More summary")]);
		const since = harness.eventCount;
		harness.submit("/compact");
		await summary.started;
		harness.submit("/ping");
		await harness.until(() => ran === 1);
		const screen = await harness.screen();
		expect(screen).toContain("pong");
		expect(screen).not.toContain("Queued message for after compaction");
		summary.open();
		await harness.waitForEvent((event) => event.type === "compaction_end", since);
	});
});

describe("Escape (app.interrupt) priorities (docs/design/interactive.md#submission-and-keys)", () => {
	it("during a retried attempt Escape stops the run", async () => {
		// A 1 ms backoff: the retry wait itself is not under test, and a real 2 s wait slows loaded runs.
		harness = await InteractiveHarness.start({
			settings: { retry: { enabled: true, maxRetries: 3, baseDelayMs: 1 } },
		});
		const gate = gatedStep(fauxAssistantMessage("never shown"));
		harness.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "529 overloaded_error: Overloaded" }),
			gate.step,
		]);
		const since = harness.eventCount;
		harness.submit("flaky provider");
		await gate.started;
		expect(harness.runtime.session.isRetrying).toBe(true);
		harness.terminal.press(KEYS.escape);
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.runtime.session.isStreaming).toBe(false);
		expect(await harness.screen()).not.toContain("never shown");
	});

	it("during compaction Escape cancels it", async () => {
		harness = await InteractiveHarness.start({ settings: { compaction: { keepRecentTokens: 1 } } });
		for (const word of ["hello", "again"]) {
			harness.faux.setResponses([fauxAssistantMessage(`reply to ${word}`)]);
			const since = harness.eventCount;
			harness.submit(word);
			await harness.waitForEvent((event) => event.type === "agent_settled", since);
		}
		const summary = gatedStep(fauxAssistantMessage("## Summary"));
		harness.faux.setResponses([summary.step]);
		const since = harness.eventCount;
		harness.submit("/compact");
		await summary.started;
		harness.terminal.press(KEYS.escape);
		await harness.waitForEvent((event) => event.type === "compaction_end", since);
		expect(await harness.screen()).toContain("Compaction cancelled");
		expect(harness.runtime.session.sessionManager.getEntries().some((entry) => entry.type === "compaction")).toBe(
			false,
		);
	});
});

describe("application keys without a default", () => {
	it("app.session.new bound in keybindings.json starts a new session", async () => {
		harness = await InteractiveHarness.start({
			agentFiles: { "keybindings.json": JSON.stringify({ "app.session.new": "ctrl+n" }) },
		});
		harness.faux.setResponses([fauxAssistantMessage("first answer")]);
		const since = harness.eventCount;
		harness.submit("hello");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const before = harness.runtime.session.sessionId;
		harness.terminal.press("\x0e");
		await harness.until(() => harness!.runtime.session.sessionId !== before);
		expect(await harness.screen()).toContain("✓ New session started");
		expect(harness.roles()).toEqual([]);
	});

	it("Shift+Ctrl+D (the global debug key) writes the debug log like /debug", async () => {
		harness = await InteractiveHarness.start();
		harness.terminal.press("\x1b[100;6u");
		expect(await harness.screen()).toContain("✓ Debug log written");
	});
});
