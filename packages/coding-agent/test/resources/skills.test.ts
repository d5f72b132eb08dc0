import { symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { formatSkillsForPrompt, type Skill, type SourceInfo } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { expandResourceCommands, expandSkillCommand, loadSkillsFromSources } from "../../src/core/resources/index.js";
import { resourceDirs, skillFile, write } from "./helpers.js";

const source: SourceInfo = { path: "", source: "local", scope: "user", origin: "top-level" };

function names(skills: Skill[]): string[] {
	return skills.map((skill) => skill.name);
}

describe("skill validation", () => {
	it("loads a valid SKILL.md with its directory as base dir", () => {
		const { root } = resourceDirs();
		const file = skillFile(
			join(root, "skills"),
			"pdf-tools",
			"Extract text from PDFs.",
			"disable-model-invocation: true\n",
		);
		const { skills, diagnostics } = loadSkillsFromSources([{ path: join(root, "skills"), sourceInfo: source }]);
		expect(diagnostics).toEqual([]);
		expect(skills).toEqual([
			{
				name: "pdf-tools",
				description: "Extract text from PDFs.",
				filePath: file,
				baseDir: join(root, "skills", "pdf-tools"),
				sourceInfo: { ...source, path: file },
				disableModelInvocation: true,
			},
		]);
	});

	it("warns about naming problems but still loads the skill", () => {
		const { root } = resourceDirs();
		const dir = join(root, "skills");
		const file = write(join(dir, "x", "SKILL.md"), `---\nname: -Bad--Name_${"x".repeat(64)}\ndescription: ok\n---\n`);
		const { skills, diagnostics } = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		expect(skills).toHaveLength(1);
		expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
			"name exceeds 64 characters (75)",
			"name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)",
			"name must not start or end with a hyphen",
			"name must not contain consecutive hyphens",
		]);
		expect(diagnostics.every((diagnostic) => diagnostic.type === "warning" && diagnostic.path === file)).toBe(true);
	});

	it("warns about an over-long description and still loads", () => {
		const { root } = resourceDirs();
		skillFile(join(root, "skills"), "long", "d".repeat(1030));
		const { skills, diagnostics } = loadSkillsFromSources([{ path: join(root, "skills"), sourceInfo: source }]);
		expect(names(skills)).toEqual(["long"]);
		expect(diagnostics[0]?.message).toBe("description exceeds 1024 characters (1030)");
	});

	it("does not load a SKILL.md without a description", () => {
		const { root } = resourceDirs();
		const file = write(join(root, "skills", "nodesc", "SKILL.md"), "---\nname: nodesc\n---\nBody");
		const { skills, diagnostics } = loadSkillsFromSources([{ path: join(root, "skills"), sourceInfo: source }]);
		expect(skills).toEqual([]);
		expect(diagnostics).toEqual([{ type: "warning", message: "description is required", path: file }]);
	});

	it("reports broken YAML in a SKILL.md as a warning naming the file, and loads the others", () => {
		const { root } = resourceDirs();
		const broken = write(
			join(root, "skills", "broken", "SKILL.md"),
			"---\nname: broken\ndescription: [unclosed\n---\n",
		);
		skillFile(join(root, "skills"), "fine");
		const { skills, diagnostics } = loadSkillsFromSources([{ path: join(root, "skills"), sourceInfo: source }]);
		expect(names(skills)).toEqual(["fine"]);
		expect(diagnostics).toEqual([
			{ type: "warning", message: expect.stringMatching(/^Invalid frontmatter: unterminated flow/), path: broken },
		]);
	});

	it("skips loose Markdown without a description silently and names loose skills after their file", () => {
		const { root } = resourceDirs();
		const dir = join(root, "skills");
		write(join(dir, "notes.md"), "# just notes");
		write(join(dir, "alpha.md"), "---\ndescription: Alpha skill\n---\n");
		write(join(dir, "beta.md"), "---\ndescription: Beta skill\n---\n");
		write(join(dir, "broken.md"), "---\ndescription: 'x\n---\n");
		const { skills, diagnostics } = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		expect(names(skills)).toEqual(["alpha", "beta"]);
		expect(diagnostics).toEqual([]);
	});
});

describe("skill discovery", () => {
	it("treats a directory with SKILL.md as one skill and does not descend into it", () => {
		const { root } = resourceDirs();
		const dir = join(root, "skills");
		skillFile(dir, "outer");
		skillFile(join(dir, "outer"), "inner");
		skillFile(join(dir, "group"), "nested");
		write(join(dir, "group", "loose.md"), "---\ndescription: below the root\n---\n");
		const { skills } = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		expect(names(skills).sort()).toEqual(["nested", "outer"]);
	});

	it("skips hidden directories and node_modules and honours ignore files with negations", () => {
		const { root } = resourceDirs();
		const dir = join(root, "skills");
		skillFile(join(dir, ".hidden"), "hidden");
		skillFile(join(dir, "node_modules"), "dep");
		skillFile(dir, "kept");
		skillFile(dir, "ignored-a");
		skillFile(dir, "ignored-b");
		skillFile(join(dir, "sub"), "sub-ignored");
		skillFile(join(dir, "sub"), "sub-kept");
		write(join(dir, ".gitignore"), "# comment\nignored-*\n!ignored-b\n");
		write(join(dir, "sub", ".ignore"), "/sub-ignored\n");
		const { skills } = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		expect(names(skills).sort()).toEqual(["ignored-b", "kept", "sub-kept"]);
	});

	it("follows symlinks and loads a file reached twice once, without a collision", () => {
		const { root } = resourceDirs();
		const real = join(root, "real-skills");
		skillFile(real, "shared");
		symlinkSync(join(real, "shared"), join(root, "link"));
		const dir = join(root, "skills");
		write(join(dir, "placeholder.txt"), "");
		symlinkSync(join(real, "shared"), join(dir, "linked"));
		symlinkSync(join(root, "missing"), join(dir, "broken-link"));
		const { skills, diagnostics } = loadSkillsFromSources([
			{ path: dir, sourceInfo: source },
			{ path: join(root, "link", "SKILL.md"), sourceInfo: source },
			{ path: real, sourceInfo: source },
		]);
		expect(names(skills)).toEqual(["shared"]);
		expect(diagnostics).toEqual([]);
		unlinkSync(join(dir, "broken-link"));
	});

	it("ignores loose files at the root of an .agents/skills directory but reads them below it", () => {
		const { root } = resourceDirs();
		const dir = join(root, ".agents", "skills");
		write(join(dir, "root-loose.md"), "---\ndescription: root level\n---\n");
		write(join(dir, "group", "grouped.md"), "---\ndescription: grouped\n---\n");
		const agents = loadSkillsFromSources([{ path: dir, sourceInfo: source, mode: "agents" }]);
		expect(names(agents.skills)).toEqual(["grouped"]);
		const pi = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		expect(names(pi.skills)).toEqual(["root-loose"]);
	});

	it("warns about missing and non-markdown explicit paths", () => {
		const { root } = resourceDirs();
		const text = write(join(root, "skill.txt"), "x");
		const { diagnostics } = loadSkillsFromSources([
			{ path: join(root, "nope"), sourceInfo: source },
			{ path: text, sourceInfo: source },
		]);
		expect(diagnostics).toEqual([
			{ type: "warning", message: "skill path does not exist", path: join(root, "nope") },
			{ type: "warning", message: "skill path is not a markdown file", path: text },
		]);
	});

	it("lets the first skill of a name win and reports the loser", () => {
		const { root } = resourceDirs();
		const first = skillFile(join(root, "a"), "same");
		const second = skillFile(join(root, "b"), "same");
		const { skills, diagnostics } = loadSkillsFromSources([
			{ path: join(root, "a"), sourceInfo: source },
			{ path: join(root, "b"), sourceInfo: source },
		]);
		expect(skills.map((skill) => skill.filePath)).toEqual([first]);
		expect(diagnostics).toEqual([
			{
				type: "collision",
				message: 'name "same" collision',
				path: second,
				collision: { resourceType: "skill", name: "same", winnerPath: first, loserPath: second },
			},
		]);
	});
});

describe("skills in the prompt", () => {
	const skill = (name: string, extra: Partial<Skill> = {}): Skill => ({
		name,
		description: `Use <${name}> & "more"`,
		filePath: `/s/${name}/SKILL.md`,
		baseDir: `/s/${name}`,
		sourceInfo: source,
		disableModelInvocation: false,
		...extra,
	});

	it("lists model-visible skills in an escaped <available_skills> block", () => {
		const text = formatSkillsForPrompt([skill("a"), skill("hidden", { disableModelInvocation: true }), skill("b'c")]);
		expect(text).toContain(
			[
				"<available_skills>",
				"  <skill>",
				"    <name>a</name>",
				"    <description>Use &lt;a&gt; &amp; &quot;more&quot;</description>",
				"    <location>/s/a/SKILL.md</location>",
				"  </skill>",
				"  <skill>",
				"    <name>b&apos;c</name>",
			].join("\n"),
		);
		expect(text).not.toContain("hidden");
		expect(text.endsWith("</available_skills>")).toBe(true);
		expect(text).toMatch(/read tool/);
	});

	it("names the reading tool, or none for an indirect reader", () => {
		expect(formatSkillsForPrompt([skill("a")], "bash")).toMatch(/use bash/);
		const indirect = formatSkillsForPrompt([skill("a")], "indirect");
		expect(indirect).not.toMatch(/read tool|use bash/);
	});

	it("is empty when every skill disables model invocation", () => {
		expect(formatSkillsForPrompt([skill("a", { disableModelInvocation: true })])).toBe("");
	});

	it("expands /skill:name args into an escaped <skill> block with the body", () => {
		const { root } = resourceDirs();
		const dir = join(root, `we"ird`);
		const file = skillFile(dir, "deploy", "Deploy things", "disable-model-invocation: true\n");
		const { skills } = loadSkillsFromSources([{ path: dir, sourceInfo: source }]);
		const escaped = file.replace(/"/g, "&quot;");
		expect(expandSkillCommand("/skill:deploy  to staging ", skills)).toEqual({
			text: `<skill name="deploy" location="${escaped}">\nReferences are relative to ${join(dir, "deploy")}.\n\nBody of deploy\n</skill>\n\nto staging`,
		});
		expect(expandSkillCommand("/skill:deploy", skills).text.endsWith("</skill>")).toBe(true);
	});

	it("passes unknown skills through and reports an unreadable skill file", () => {
		const { root } = resourceDirs();
		const file = skillFile(join(root, "s"), "gone");
		const { skills } = loadSkillsFromSources([{ path: join(root, "s"), sourceInfo: source }]);
		expect(expandSkillCommand("/skill:unknown x", skills)).toEqual({ text: "/skill:unknown x" });
		unlinkSync(file);
		const result = expandSkillCommand("/skill:gone x", skills);
		expect(result.text).toBe("/skill:gone x");
		expect(result.error).toMatch(/Failed to read skill "gone"/);
	});
});

describe("resource command expansion", () => {
	it("expands /skill: first and then an exact template name; unknown skills may still match a template", () => {
		const { root } = resourceDirs();
		skillFile(join(root, "s"), "lint", "Lint code");
		const { skills } = loadSkillsFromSources([{ path: join(root, "s"), sourceInfo: source }]);
		const prompts = [
			{ name: "skill:missing", description: "", content: "template for $1", filePath: "/p.md", sourceInfo: source },
			{ name: "review", description: "", content: "Review $@", filePath: "/r.md", sourceInfo: source },
		];
		const lint = expandResourceCommands("/skill:lint now", { skills, prompts });
		expect(lint.text).toMatch(/^<skill name="lint"[\s\S]*<\/skill>\n\nnow$/);
		expect(expandResourceCommands("/skill:missing x", { skills, prompts })).toEqual({ text: "template for x" });
		expect(expandResourceCommands("/review a b", { skills, prompts })).toEqual({ text: "Review a b" });
		expect(expandResourceCommands("/unknown", { skills, prompts })).toEqual({ text: "/unknown" });
	});
});
