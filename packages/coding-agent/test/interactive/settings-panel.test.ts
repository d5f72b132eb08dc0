import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxThinking } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { completeTheme } from "../support/themes.js";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** What the global settings layer holds after the panel's pending writes. */
async function globalSettings(h: InteractiveHarness): Promise<Record<string, unknown>> {
	const settings = h.runtime.session.settingsManager;
	await settings.flush();
	await settings.reload();
	return settings.getGlobalSettings() as Record<string, unknown>;
}

/** Opens /settings, advances the row matching `label` `times` times, and closes the panel. */
async function change(h: InteractiveHarness, label: string, times = 1): Promise<void> {
	h.submit("/settings");
	expect(await h.screen()).toContain("Settings");
	for (let i = 0; i < times; i++) {
		h.type(label);
		h.terminal.press(KEYS.enter);
		await h.settleMicrotasks();
	}
	h.terminal.press(KEYS.escape);
	await h.settleMicrotasks();
}

/** The rows docs/design/interactive.md#slash-commands lists for /settings, as the panel labels them. */
const ROW_LABELS = [
	"Auto-compaction",
	"Steering mode",
	"Follow-up mode",
	"Transport",
	"Share destination",
	"HTTP idle timeout",
	"Cache warming",
	"Hide thinking",
	"Mermaid rendering",
	"Cache-miss notices",
	"Collapsed changelog",
	"Quiet startup",
	"Install telemetry",
	"Default project trust",
	"Double-Escape action",
	"Tree filter mode",
	"Warn about Anthropic extra usage",
	"Thinking level for faux/thinker",
	"TUI mode",
	"Fullscreen exit output",
	"Fullscreen scrollbar",
	"Fullscreen copy on select",
	"Fullscreen wheel scroll lines",
	"Theme",
	"Show images",
	"Image width",
	"Auto-resize images",
	"Block images",
	"Skill commands",
	"Hardware cursor",
	"Editor padding",
	"Output padding",
	"Autocomplete size",
	"Clear on shrink",
	"Terminal progress",
];

describe("/settings", () => {
	it("offers every setting of its row in docs/design/interactive.md#slash-commands", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		harness.submit("/settings");
		for (const label of ROW_LABELS) {
			harness.type(label);
			const shown = (await harness.viewport()).join("\n");
			expect(shown, label).toContain(label);
			for (let i = 0; i < label.length; i++) harness.terminal.press(KEYS.backspace);
		}
		harness.terminal.press(KEYS.escape);
	});

	it("saves each change to the global settings", async () => {
		harness = await InteractiveHarness.start();
		await change(harness, "Transport");
		await change(harness, "Share destination");
		await change(harness, "HTTP idle timeout");
		await change(harness, "Cache warming");
		await change(harness, "Mermaid rendering");
		await change(harness, "Quiet startup", 2);
		await change(harness, "Default project trust");
		await change(harness, "Tree filter mode");
		await change(harness, "Warn about Anthropic extra usage");
		await change(harness, "Fullscreen exit output");
		await change(harness, "Image width");
		await change(harness, "Block images");
		await change(harness, "Terminal progress");
		const saved = await globalSettings(harness);
		expect(saved).toMatchObject({
			transport: "sse",
			sessionShareDestination: "gist",
			httpIdleTimeoutMs: 600000,
			cacheWarming: "off",
			markdown: { mermaid: "off" },
			quietStartup: "header",
			defaultProjectTrust: "always",
			treeFilterMode: "no-tools",
			warnings: { anthropicExtraUsage: false },
			fullscreenExitOutput: "resume-hint",
			terminal: { imageWidthCells: 80, showTerminalProgress: true },
			images: { blockImages: true },
		});
	});

	it("the current model's thinking level is set now and remembered for that model", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		const before = harness.runtime.session.thinkingLevel;
		await change(harness, "Thinking level for faux/thinker");
		const after = harness.runtime.session.thinkingLevel;
		expect(after).not.toBe(before);
		expect((await globalSettings(harness)).modelThinkingLevels).toEqual({ "faux/thinker": after });
	});

	it("hiding thinking applies to the transcript already shown", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		harness.faux.appendResponses([fauxAssistantMessage([fauxThinking("pondering deeply"), fauxText("the answer")])]);
		const since = harness.eventCount;
		harness.submit("hi");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect((await harness.viewport()).join("\n")).toContain("pondering deeply");
		await change(harness, "Hide thinking");
		const shown = (await harness.viewport()).join("\n");
		expect(shown).not.toContain("pondering deeply");
		expect(shown).toContain("the answer");
	});

	it("editor padding applies to the editor now", async () => {
		harness = await InteractiveHarness.start();
		const column = async () => {
			const line = (await harness!.viewport()).find((row) => row.includes("draft"));
			return line?.indexOf("draft");
		};
		await change(harness, "Editor padding", 2);
		harness.type("draft");
		const padded = await column();
		harness.mode.editor.setText("");
		await change(harness, "Editor padding", 2);
		harness.type("draft");
		expect(harness.runtime.session.settingsManager.getEditorPaddingX()).toBe(0);
		expect(await column()).toBe((padded ?? 0) - 2);
	});

	it("autocomplete size applies to the open editor now", async () => {
		harness = await InteractiveHarness.start();
		await change(harness, "Autocomplete size");
		expect(harness.runtime.session.settingsManager.getAutocompleteMaxVisible()).toBe(8);
		harness.type("/");
		await harness.until(async () => (await harness!.viewport()).some((line) => /\(\d+\/\d+\)/.test(line)));
		const shown = (await harness.viewport()).filter((line) => /^(→ | {2})[a-z-]+\s{2,}\S/.test(line));
		expect(shown).toHaveLength(8);
	});

	it("the fullscreen scrollbar setting applies to the running renderer", async () => {
		harness = await InteractiveHarness.start({ mode: { tuiMode: "fullscreen" }, rows: 12 });
		for (let i = 0; i < 3; i++) {
			harness.faux.appendResponses([
				fauxAssistantMessage(Array.from({ length: 12 }, (_, n) => `line ${n}`).join("\n\n")),
			]);
			const since = harness.eventCount;
			harness.submit(`question ${i}`);
			await harness.waitForEvent((event) => event.type === "agent_settled", since);
		}
		const hasBar = async () => (await harness!.viewport()).some((row) => /[│┃]$/.test(row));
		expect(await hasBar()).toBe(false);
		await change(harness, "Fullscreen scrollbar");
		expect(harness.runtime.session.settingsManager.getFullscreenScrollbar()).toBe("always");
		expect(harness.mode.tui.mode).toBe("fullscreen");
		expect(await hasBar()).toBe(true);
	});

	it("turning skill commands off removes /skill: completions now", async () => {
		const root = mkdtempSync(join(tmpdir(), "tau-settings-skills-"));
		mkdirSync(join(root, "skills", "review"), { recursive: true });
		writeFileSync(
			join(root, "skills", "review", "SKILL.md"),
			"---\nname: review\ndescription: Review the current diff\n---\nReview carefully.\n",
		);
		harness = await InteractiveHarness.start({
			loader: { noSkills: false, homeDir: root, additionalSkillPaths: [join(root, "skills")] },
		});
		await change(harness, "Skill commands");
		harness.type("/rev");
		await harness.screen();
		harness.type("i");
		expect(await harness.screen()).not.toContain("skill:review");
	});

	it("a theme chosen in the panel is saved and applied to the running UI", async () => {
		const dir = join(mkdtempSync(join(tmpdir(), "tau-settings-theme-")), "themes");
		mkdirSync(dir);
		writeFileSync(join(dir, "night.json"), JSON.stringify(completeTheme("night", 1)));
		harness = await InteractiveHarness.start({
			settings: { theme: "system" },
			loader: { noThemes: false, additionalThemePaths: [dir] },
		});
		harness.submit("/settings");
		harness.type("Theme");
		await harness.screen();
		for (let i = 0; i < 8 && harness.runtime.session.settingsManager.getThemeSetting() !== "night"; i++) {
			harness.terminal.press(KEYS.enter);
			await harness.settleMicrotasks();
			harness.type("Theme");
		}
		harness.terminal.press(KEYS.escape);
		await harness.settleMicrotasks();
		expect((await globalSettings(harness)).theme).toBe("night");
		expect(harness.mode.theme.name).toBe("night");
		await change(harness, "Theme");
		expect(harness.runtime.session.settingsManager.getThemeSetting()).toBe("system");
		expect(await harness.screen()).not.toContain("not found");
	});
});
