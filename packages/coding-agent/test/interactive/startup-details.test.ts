import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;
let resources: string | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	if (resources) rmSync(resources, { recursive: true, force: true });
	resources = undefined;
});

/** A skill and a prompt template on disk, outside the agent dir. */
function writeResources(): { skill: string; prompt: string } {
	resources = mkdtempSync(join(tmpdir(), "tau-startup-details-"));
	const skillDir = join(resources, "skills", "release-notes");
	mkdirSync(skillDir, { recursive: true });
	const skill = join(skillDir, "SKILL.md");
	writeFileSync(skill, "---\nname: release-notes\ndescription: Writes release notes\n---\nSteps.\n");
	const prompt = join(resources, "review.md");
	writeFileSync(prompt, "---\ndescription: Review the diff\n---\nReview $@\n");
	return { skill, prompt };
}

describe("startup details (docs/design/interactive.md#startup)", () => {
	it("the expanded header lists the model scope with the cycle key and the loaded resources", async () => {
		const { skill, prompt } = writeResources();
		harness = await InteractiveHarness.start({
			models: [{ id: "alpha" }, { id: "beta" }],
			agentFiles: { "AGENTS.md": "Be brief.\n" },
			loader: {
				noContextFiles: false,
				noSkills: false,
				noPromptTemplates: false,
				additionalSkillPaths: [join(resources!, "skills")],
				additionalPromptTemplatePaths: [prompt],
			},
		});
		const models = harness.runtime.session.modelRuntime.getAvailableSnapshot();
		const alpha = models.find((model) => model.id === "alpha")!;
		const beta = models.find((model) => model.id === "beta")!;
		// As `--models faux/alpha:high,faux/beta` would have scoped the session.
		harness.runtime.session.setScopedModels([{ model: alpha, thinkingLevel: "high" }, { model: beta }]);
		let screen = await harness.screen();
		expect(screen).toContain("Press Ctrl+O to show full startup help and loaded resources.");
		expect(screen).not.toContain("Model scope:");

		harness.terminal.press(KEYS.ctrlO);
		screen = await harness.screen();
		expect(screen).toContain("Model scope: alpha:high, beta (Ctrl+P to cycle)");
		expect(screen).toContain(join(harness.agentDir, "AGENTS.md"));
		expect(screen).toContain(`release-notes  ${skill}`);
		expect(screen).toContain(`/review  ${prompt}`);
	});

	it("without anything loaded the hint does not promise loaded resources; quietStartup header hides them", async () => {
		harness = await InteractiveHarness.start();
		expect(await harness.screen()).toContain("Press Ctrl+O to show full startup help.");
		await harness.close();

		harness = await InteractiveHarness.start({
			agentFiles: { "AGENTS.md": "Be brief.\n" },
			loader: { noContextFiles: false },
			settings: { quietStartup: "header" },
		});
		harness.terminal.press(KEYS.ctrlO);
		const screen = await harness.screen();
		expect(screen).toContain("!! to run bash (no context)");
		expect(screen).not.toContain("AGENTS.md");
	});
});
