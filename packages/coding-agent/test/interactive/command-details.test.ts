import { existsSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { gatedStep, InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const PRICED = { input: 1_000_000, output: 1_000_000, cacheRead: 0, cacheWrite: 0 };

describe("built-in command details (docs/design/interactive.md#slash-commands)", () => {
	it("/session breaks the cost down per model and shows cache statistics and the cache-warming status", async () => {
		harness = await InteractiveHarness.start({
			models: [
				{ id: "cheap", cost: PRICED },
				{ id: "other", cost: PRICED },
			],
			settings: { cacheWarming: "streaming" },
		});
		await harness.answer("hello", "hi");
		harness.submit("/model other");
		await harness.settleMicrotasks();
		await harness.answer("again", "hi there");
		harness.submit("/session");
		const screen = await harness.screen();
		expect(screen).toMatch(/faux\/cheap: \$\d+\.\d{3} \(1 reply\)/);
		expect(screen).toMatch(/faux\/other: \$\d+\.\d{3} \(1 reply\)/);
		expect(screen).toContain("Cache: ");
		expect(screen).toContain("Cache warming: streaming");
	});

	it("/reload shows a bordered Reloading box in place of the editor until the reload finishes", async () => {
		let release: () => void = () => {};
		const gate = new Promise<void>((resolve) => {
			release = resolve;
		});
		let reloading: () => void = () => {};
		const started = new Promise<void>((resolve) => {
			reloading = resolve;
		});
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_start", async (event) => {
					if (event.reason !== "reload") return;
					reloading();
					await gate;
				});
			},
		});
		harness.type("draft");
		harness.mode.editor.setText("");
		harness.submit("/reload");
		await started;
		const during = await harness.viewport();
		const box = during.findIndex((line) => line.includes("Reloading"));
		expect(box).toBeGreaterThan(0);
		expect(during[box - 1]).toMatch(/^─+$/);
		expect(during[box + 1]).toMatch(/^─+$/);
		release();
		await harness.until(async () => (await harness!.screen()).includes("✓ Reloaded"));
		expect((await harness.viewport()).some((line) => line.includes("Reloading keybindings"))).toBe(false);
	});

	it("/reload is refused while a response streams", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("done"));
		harness.faux.setResponses([gate.step]);
		const since = harness.eventCount;
		harness.submit("work");
		await gate.started;
		harness.submit("/reload");
		expect(await harness.screen()).toContain("Wait for the current response to finish before reloading.");
		expect(await harness.screen()).not.toContain("Reloading keybindings");
		gate.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
	});

	it("/reload is refused while compacting", async () => {
		harness = await InteractiveHarness.start({ settings: { compaction: { keepRecentTokens: 1 } } });
		await harness.answer("hello", "hi");
		await harness.answer("again", "hi again");
		const summary = gatedStep(fauxAssistantMessage("## Summary\nuser greeted twice"));
		harness.faux.setResponses([summary.step, fauxAssistantMessage("## More summary")]);
		const since = harness.eventCount;
		harness.submit("/compact");
		await summary.started;
		harness.submit("/reload");
		expect(await harness.screen()).toContain("Wait for compaction to finish before reloading.");
		summary.open();
		await harness.waitForEvent((event) => event.type === "compaction_end", since);
	});

	it("/thinking without a level opens the selector; Enter sets it for the session, Ctrl+S also saves the default", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		const settings = harness.runtime.session.settingsManager;
		harness.submit("/thinking");
		await harness.until(async () => (await harness!.screen()).includes("Thinking level"));
		harness.type("low");
		harness.terminal.press("\r");
		await harness.until(() => harness!.runtime.session.thinkingLevel === "low");
		expect(settings.getDefaultThinkingLevel()).not.toBe("low");
		harness.submit("/thinking");
		await harness.until(async () => (await harness!.screen()).includes("to save as default"));
		harness.type("high");
		harness.terminal.press("\x13");
		await harness.until(async () => (await harness!.screen()).includes("Default thinking level saved: high"));
		expect(harness.runtime.session.thinkingLevel).toBe("high");
		expect(settings.getDefaultThinkingLevel()).toBe("high");
	});

	it("/name warns when the name was normalized (line breaks become spaces)", async () => {
		harness = await InteractiveHarness.start();
		harness.type("/name ");
		harness.terminal.press("\x1b[200~release\nnotes\x1b[201~");
		harness.terminal.press("\r");
		await harness.until(() => harness!.runtime.session.sessionName === "release notes");
		const screen = await harness.screen();
		expect(screen).toContain("Session name set: release notes");
		expect(screen).toContain('The name was normalized to "release notes"');
	});

	it("/export accepts a quoted path", async () => {
		harness = await InteractiveHarness.start();
		await harness.answer("hello", "hi");
		harness.submit('/export "my export.jsonl"');
		await harness.until(async () => (await harness!.screen()).includes("Session exported to:"));
		expect(existsSync(join(harness.cwd, "my export.jsonl"))).toBe(true);
	});

	it("/new cancelled by an extension keeps the session and shows no confirmation", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_before_switch", () => ({ cancel: true }));
			},
		});
		await harness.answer("hello", "hi");
		const id = harness.runtime.session.sessionId;
		harness.submit("/new");
		await harness.settleMicrotasks(50);
		expect(harness.runtime.session.sessionId).toBe(id);
		expect(await harness.screen()).not.toContain("New session started");
	});
});
