import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("autocomplete", () => {
	it("offers built-in commands, prompt templates, skills (/skill:<name>) and @ file paths", async () => {
		const root = mkdtempSync(join(tmpdir(), "tau-autocomplete-"));
		mkdirSync(join(root, "skills", "review"), { recursive: true });
		writeFileSync(
			join(root, "skills", "review", "SKILL.md"),
			"---\nname: review\ndescription: Review the current diff\n---\nReview carefully.\n",
		);
		mkdirSync(join(root, "prompts"), { recursive: true });
		writeFileSync(join(root, "prompts", "fixbug.md"), "---\ndescription: Fix the reported bug\n---\nFix $1\n");
		harness = await InteractiveHarness.start({
			loader: {
				noSkills: false,
				noPromptTemplates: false,
				homeDir: root,
				additionalSkillPaths: [join(root, "skills")],
				additionalPromptTemplatePaths: [join(root, "prompts")],
			},
		});
		writeFileSync(join(harness.cwd, "notes.txt"), "x");
		harness.type("/");
		await harness.until(async () => (await harness!.screen()).includes("Select the model"));
		harness.type("fix");
		await harness.until(async () => (await harness!.screen()).includes("Fix the reported bug"));
		harness.terminal.press(KEYS.ctrlC);
		harness.type("/rev");
		await harness.until(async () => (await harness!.screen()).includes("skill:review"));
		harness.clock += 1000;
		harness.terminal.press(KEYS.ctrlC);
		harness.type("read @note");
		await harness.until(async () => (await harness!.screen()).includes("notes.txt"));
		harness.terminal.press("\t");
		await harness.until(() => harness!.mode.editor.getText() === "read @notes.txt ");
	});
});

describe("model and thinking cycling", () => {
	it("Ctrl+P cycles models and Shift+Tab cycles the thinking level, updating the footer", async () => {
		harness = await InteractiveHarness.start({
			models: [
				{ id: "alpha", reasoning: true },
				{ id: "beta", reasoning: true },
			],
		});
		expect(harness.runtime.session.model?.id).toBe("alpha");
		harness.terminal.press("\x10");
		await harness.until(() => harness!.runtime.session.model?.id === "beta");
		expect(await harness.screen()).toContain("Model: beta");
		const before = harness.runtime.session.thinkingLevel;
		harness.terminal.press("\x1b[Z");
		const after = harness.runtime.session.thinkingLevel;
		expect(after).not.toBe(before);
		const screen = await harness.screen();
		expect(screen).toContain(`Thinking level: ${after}`);
		expect(screen).toMatch(new RegExp(`beta • ${after}\\s*$`, "m"));
	});

	it("Ctrl+L opens the model selector", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "alpha" }, { id: "beta" }] });
		harness.terminal.press("\x0c");
		expect(await harness.screen()).toContain("Select model");
	});
});
