import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultResourceLoader, parseFrontmatter, SettingsManager } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";
import { buildSystemPrompt } from "../src/core/resources/index.js";

const SKILL_TEXT = [
	"---",
	"name: bench-skill",
	"description: >-",
	"  A skill used to measure frontmatter parsing, with a folded description",
	"  that spans two lines.",
	"license: MIT",
	"metadata:",
	"  author: bench",
	"  tags: [one, two, three]",
	"allowed-tools:",
	"  - read",
	"  - bash",
	"---",
	"Body text.",
].join("\n");

/** An agent dir with 200 skills, 200 prompt templates and a context file per ancestor level. */
function populate(root: string): { cwd: string; agentDir: string; home: string } {
	const home = join(root, "home");
	const agentDir = join(home, ".tau", "agent");
	const cwd = join(root, "a", "b", "c", "project");
	for (let i = 0; i < 200; i++) {
		const dir = join(agentDir, "skills", `skill-${i}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "SKILL.md"), SKILL_TEXT.replace("bench-skill", `skill-${i}`));
		mkdirSync(join(agentDir, "prompts"), { recursive: true });
		writeFileSync(
			join(agentDir, "prompts", `p${i}.md`),
			`---\ndescription: Prompt ${i}\n---\nDo $1 with \${2:-care}.`,
		);
	}
	mkdirSync(cwd, { recursive: true });
	writeFileSync(join(cwd, "AGENTS.md"), "Project rules.\n".repeat(50));
	writeFileSync(join(root, "a", "AGENTS.md"), "Parent rules.\n".repeat(50));
	return { cwd, agentDir, home };
}

const bench: Bench = async (ctx) => {
	const root = mkdtempSync(join(tmpdir(), "tau-resources-bench-"));
	try {
		await ctx.time("resources: parse one SKILL.md frontmatter", () => parseFrontmatter(SKILL_TEXT), {
			iterations: 2000,
			warmup: 200,
		});
		const { cwd, agentDir, home } = populate(root);
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: home,
			settingsManager: SettingsManager.inMemory({}, { projectTrusted: true }),
		});
		await ctx.time("resources: reload with 200 skills + 200 prompts", () => loader.reload(), {
			iterations: 20,
			warmup: 2,
		});
		await ctx.time(
			"resources: build system prompt with 200 skills",
			() =>
				buildSystemPrompt({
					cwd,
					skills: loader.getSkills().skills,
					contextFiles: loader.getAgentsFiles().agentsFiles,
				}),
			{ iterations: 200, warmup: 20 },
		);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
};

export default bench;
