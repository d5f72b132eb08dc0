import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI, SlashCommandInfo } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AnyToolDefinition } from "../../src/core/extensions/index.js";
import { createHarness } from "../agent-session/harness.js";
import { tempDir } from "../support/isolated-session.js";

const tool = (name: string, description: string): AnyToolDefinition => ({
	name,
	label: name,
	description,
	parameters: Type.Object({}),
	execute: async () => ({ content: [{ type: "text", text: description }], details: undefined }),
});

describe("tool name conflicts in a session", () => {
	it("SDK customTools override tools of the same name from every extension", async () => {
		const h = await createHarness({
			session: { customTools: [tool("shared", "from the sdk")] },
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) => pi.registerTool(tool("shared", "from extension one")),
					(pi: ExtensionAPI) => pi.registerTool(tool("shared", "from extension two")),
				],
			},
		});
		expect(h.session.getToolDefinition("shared")?.description).toBe("from the sdk");
		const info = h.session.getAllTools().filter((entry) => entry.name === "shared");
		expect(info).toHaveLength(1);
		expect(info[0]?.sourceInfo).toMatchObject({ source: "sdk", path: "<sdk:shared>" });
	});

	it("without an SDK tool the first extension wins", async () => {
		const h = await createHarness({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) => pi.registerTool(tool("shared", "from extension one")),
					(pi: ExtensionAPI) => pi.registerTool(tool("shared", "from extension two")),
				],
			},
		});
		expect(h.session.getToolDefinition("shared")?.description).toBe("from extension one");
	});
});

describe("pi.getCommands()", () => {
	it("lists extension commands, then prompt templates, then skills as skill:<name>", async () => {
		const root = tempDir("tau-commands-");
		const prompts = join(root, "prompts");
		mkdirSync(prompts);
		writeFileSync(join(prompts, "fix.md"), "---\ndescription: Fix things\n---\nFix $1");
		const skill = join(root, "skills", "pdf");
		mkdirSync(skill, { recursive: true });
		writeFileSync(join(skill, "SKILL.md"), "---\ndescription: PDF help\n---\nbody");
		let api: ExtensionAPI | undefined;
		const h = await createHarness({
			loader: {
				noSkills: false,
				noPromptTemplates: false,
				additionalPromptTemplatePaths: [prompts],
				additionalSkillPaths: [skill],
				extensionFactories: [
					(pi: ExtensionAPI) => {
						api = pi;
						pi.registerCommand("zeta", { description: "last letter", handler: async () => {} });
					},
					(pi: ExtensionAPI) => pi.registerCommand("alpha", { handler: async () => {} }),
				],
			},
		});
		await h.session.bindExtensions({});
		const commands: SlashCommandInfo[] = api!.getCommands();
		expect(commands.map((command) => [command.source, command.name])).toEqual([
			["extension", "zeta"],
			["extension", "alpha"],
			["prompt", "fix"],
			["skill", "skill:pdf"],
		]);
		expect(commands[0]?.description).toBe("last letter");
		expect(commands[2]?.description).toBe("Fix things");
	});
});
