import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, noteCommandAndInputLog, textOfMessage } from "../agent-session/harness.js";
import { tempDir } from "../support/isolated-session.js";

/** A folder with a `note` and a `greet` template and a `demo` skill. */
function resources(): { prompts: string; skill: string } {
	const root = tempDir("tau-input-order-");
	const prompts = join(root, "prompts");
	mkdirSync(prompts);
	writeFileSync(join(prompts, "note.md"), "TEMPLATE NOTE $1");
	writeFileSync(join(prompts, "greet.md"), "Say hello to $1.");
	const skill = join(root, "skills", "demo");
	mkdirSync(skill, { recursive: true });
	writeFileSync(join(skill, "SKILL.md"), "---\ndescription: A demo skill\n---\nFollow /greet steps.");
	return { prompts, skill };
}

async function harnessWith(factory: (pi: ExtensionAPI) => void) {
	const { prompts, skill } = resources();
	return createHarness({
		loader: {
			noSkills: false,
			noPromptTemplates: false,
			additionalPromptTemplatePaths: [prompts],
			additionalSkillPaths: [skill],
			extensionFactories: [factory],
		},
	});
}

const userTexts = (messages: readonly object[]) =>
	messages.filter((message) => (message as { role: string }).role === "user").map((message) => textOfMessage(message));

describe("input processing order", () => {
	it("an extension command wins over a same-named template and fires no input event", async () => {
		const seen: string[] = [];
		const h = await harnessWith(noteCommandAndInputLog(seen));
		expect(h.session.promptTemplates.map((template) => template.name)).toContain("note");
		await h.session.prompt("/note buy milk");
		expect(seen).toEqual(["command:buy milk"]);
		expect(h.faux.state.callCount).toBe(0);
	});

	it("input sees the raw /skill: text; skill expansion, then template expansion, follow the input event", async () => {
		const inputs: string[] = [];
		const h = await harnessWith((pi) => {
			pi.on("input", (event) => {
				inputs.push(event.text);
				// Turning plain text into a template call shows templates expand after the input event.
				return event.text === "hi" ? { action: "transform", text: "/greet Ana" } : undefined;
			});
		});
		h.faux.setResponses([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		await h.session.prompt("/skill:demo now");
		await h.session.prompt("hi");
		expect(inputs).toEqual(["/skill:demo now", "hi"]);
		const [skillText, templateText] = userTexts(h.session.messages);
		expect(skillText).toMatch(/^<skill name="demo" location="[^"]+SKILL\.md">\n/);
		// The skill body mentions /greet but is not template-expanded: the text no longer starts with it.
		expect(skillText).toContain("Follow /greet steps.");
		expect(skillText!.endsWith("</skill>\n\nnow")).toBe(true);
		expect(templateText).toBe("Say hello to Ana.");
	});
});
