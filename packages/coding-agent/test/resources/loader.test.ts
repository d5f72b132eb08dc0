import { existsSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { DefaultResourceLoader, type InlineExtension, SettingsManager } from "@tau/coding-agent";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { type DefaultResourceLoaderOptions, PackageResolver } from "../../src/core/resources/index.js";
import { completeTheme } from "../support/themes.js";
import { fakeExtensionLoader, resourceDirs, skillFile, write, writeJson } from "./helpers.js";

function setup() {
	const dirs = resourceDirs();
	const make = (options: Partial<DefaultResourceLoaderOptions> = {}) =>
		new DefaultResourceLoader({ cwd: dirs.cwd, agentDir: dirs.agentDir, homeDir: dirs.home, ...options });
	return { ...dirs, make };
}

describe("DefaultResourceLoader construction", () => {
	it("performs no filesystem access in the constructor", () => {
		const { root, home } = resourceDirs();
		const agentDir = join(root, "no", "agent");
		const cwd = join(root, "no", "project");
		new DefaultResourceLoader({ cwd, agentDir, homeDir: home, additionalSkillPaths: [join(root, "x")] });
		expect(existsSync(join(root, "no"))).toBe(false);
	});

	it("loads with a default settings manager on the first reload, even without any directories", async () => {
		const { root, home } = resourceDirs();
		const loader = new DefaultResourceLoader({
			cwd: join(root, "none"),
			agentDir: join(root, "none-agent"),
			homeDir: home,
		});
		await loader.reload();
		expect(loader.getSkills()).toEqual({ skills: [], diagnostics: [] });
		expect(loader.getSystemPrompt()).toBeUndefined();
	});
});

describe("precedence and collisions", () => {
	it("resolves a same-named skill CLI > project explicit > project auto > user explicit > user auto > package", async () => {
		const { root, cwd, agentDir, home, make } = setup();
		const cli = skillFile(join(root, "cli"), "same");
		const projectExplicit = skillFile(join(root, "project-explicit"), "same");
		const projectAuto = skillFile(join(cwd, ".tau", "skills"), "same");
		const userExplicit = skillFile(join(root, "user-explicit"), "same");
		const userAuto = skillFile(join(agentDir, "skills"), "same");
		const agentsAuto = skillFile(join(home, ".agents", "skills"), "same");
		const pkg = join(root, "pkg");
		const packaged = skillFile(join(pkg, "skills"), "same");
		writeJson(join(cwd, ".tau", "settings.json"), { skills: [join(root, "project-explicit")] });
		writeJson(join(agentDir, "settings.json"), { skills: [join(root, "user-explicit")], packages: [pkg] });

		const order = [cli, projectExplicit, projectAuto, userExplicit, userAuto, agentsAuto, packaged];
		const loader = make({ additionalSkillPaths: [join(root, "cli")] });
		await loader.reload();
		const { skills, diagnostics } = loader.getSkills();
		expect(skills.map((skill) => skill.filePath)).toEqual([cli]);
		expect(diagnostics.map((diagnostic) => diagnostic.collision?.loserPath)).toEqual(order.slice(1));
		expect(diagnostics.every((diagnostic) => diagnostic.collision?.winnerPath === cli)).toBe(true);
		expect(diagnostics[0]).toEqual({
			type: "collision",
			message: 'name "same" collision',
			path: projectExplicit,
			collision: { resourceType: "skill", name: "same", winnerPath: cli, loserPath: projectExplicit },
		});
		expect(skills[0]?.sourceInfo).toMatchObject({ source: "cli", scope: "temporary", origin: "top-level" });

		// Removing each winner in turn hands the name to the next source.
		const loaderWithoutCli = make();
		for (const winner of order.slice(1)) {
			await loaderWithoutCli.reload();
			expect(loaderWithoutCli.getSkills().skills.map((skill) => skill.filePath)).toEqual([winner]);
			rmSync(winner);
		}
	});

	it("loads a skill reachable through a symlink and directly once, without a collision", async () => {
		const { root, agentDir, make } = setup();
		const real = skillFile(join(agentDir, "skills"), "linked");
		symlinkSync(join(agentDir, "skills", "linked"), join(root, "alias"));
		writeJson(join(agentDir, "settings.json"), { skills: [join(root, "alias")] });
		const loader = make();
		await loader.reload();
		expect(loader.getSkills().skills.map((skill) => skill.name)).toEqual(["linked"]);
		expect(loader.getSkills().diagnostics).toEqual([]);
		expect([join(root, "alias", "SKILL.md"), real]).toContain(loader.getSkills().skills[0]?.filePath);
	});

	it("reports prompt and theme collisions with their message formats", async () => {
		const { cwd, agentDir, make } = setup();
		const projectPrompt = write(join(cwd, ".tau", "prompts", "x.md"), "project");
		const userPrompt = write(join(agentDir, "prompts", "x.md"), "user");
		const projectTheme = writeJson(join(cwd, ".tau", "themes", "a.json"), completeTheme("x", 7));
		const userTheme = writeJson(join(agentDir, "themes", "b.json"), completeTheme("x", 7));
		const loader = make();
		await loader.reload();
		expect(loader.getPrompts().prompts.map((prompt) => prompt.content)).toEqual(["project"]);
		expect(loader.getPrompts().diagnostics).toEqual([
			{
				type: "collision",
				message: 'name "/x" collision',
				path: userPrompt,
				collision: { resourceType: "prompt", name: "x", winnerPath: projectPrompt, loserPath: userPrompt },
			},
		]);
		expect(loader.getThemes().diagnostics).toEqual([
			{
				type: "collision",
				message: 'name "x" collision',
				path: userTheme,
				collision: { resourceType: "theme", name: "x", winnerPath: projectTheme, loserPath: userTheme },
			},
		]);
	});
});

describe("switches", () => {
	it("--no-skills keeps --skill paths and skills of -e packages", async () => {
		const { root, agentDir, make } = setup();
		skillFile(join(agentDir, "skills"), "discovered");
		skillFile(join(root, "explicit"), "explicit");
		const pkg = join(root, "ext-pkg");
		write(join(pkg, "extensions", "tool.ts"), "export default () => {}");
		skillFile(join(pkg, "skills"), "from-package");
		const loader = make({
			noSkills: true,
			additionalSkillPaths: [join(root, "explicit")],
			additionalExtensionPaths: [pkg],
		});
		await loader.reload();
		expect(
			loader
				.getSkills()
				.skills.map((skill) => skill.name)
				.sort(),
		).toEqual(["explicit", "from-package"]);
	});

	it("-ne keeps -e extensions and -e builtin:mcp; --no-mcp removes only builtin:mcp", async () => {
		const { root, agentDir, make } = setup();
		const userExt = write(join(agentDir, "extensions", "user.ts"), "");
		const cliExt = write(join(root, "cli.ts"), "");
		const builtins: InlineExtension[] = [
			{ name: "mcp", factory: () => {}, builtin: true, replaceable: true },
			{ name: "codemode", factory: () => {}, builtin: true, replaceable: true },
		];
		const inline: InlineExtension = () => {};

		const fake = fakeExtensionLoader();
		const noExtensions = make({
			loadExtensions: fake.load,
			noExtensions: true,
			additionalExtensionPaths: [cliExt, "builtin:mcp"],
			extensionFactories: [...builtins, inline],
		});
		await noExtensions.reload();
		expect(noExtensions.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			cliExt,
			"builtin:mcp",
			"<inline:3>",
		]);

		const noMcp = make({
			loadExtensions: fakeExtensionLoader().load,
			disabledBuiltinExtensions: ["mcp"],
			extensionFactories: builtins,
		});
		await noMcp.reload();
		expect(noMcp.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			userExt,
			"builtin:codemode",
		]);
		const codemode = noMcp.getExtensions().extensions[1];
		expect(codemode).toMatchObject({ hidden: true, replaceable: true, sourceInfo: { source: "builtin" } });
	});

	it("--no-context-files loads no AGENTS/CLAUDE files", async () => {
		const { cwd, agentDir, make } = setup();
		write(join(cwd, "AGENTS.md"), "project");
		write(join(agentDir, "AGENTS.md"), "global");
		const withFiles = make();
		await withFiles.reload();
		expect(withFiles.getAgentsFiles().agentsFiles.map((file) => file.content)).toEqual(["global", "project"]);
		const without = make({ noContextFiles: true });
		await without.reload();
		expect(without.getAgentsFiles().agentsFiles).toEqual([]);
	});

	it("discovers .agents/skills from the cwd up to the git root, nearest first, plus ~/.agents/skills", async () => {
		const { root, home, make } = setup();
		const repo = join(root, "work");
		write(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
		const above = skillFile(join(root, ".agents", "skills"), "above-repo");
		const repoLevel = skillFile(join(repo, ".agents", "skills"), "repo-level");
		const nearest = skillFile(join(repo, "project", ".agents", "skills"), "nearest");
		const user = skillFile(join(home, ".agents", "skills"), "personal");
		write(
			join(repo, "project", ".agents", "skills", "loose-root.md"),
			"---\ndescription: ignored at the root\n---\n",
		);
		const loader = make();
		await loader.reload();
		const skills = loader.getSkills().skills;
		expect(skills.map((skill) => skill.filePath)).toEqual([nearest, repoLevel, user]);
		expect(skills.map((skill) => skill.filePath)).not.toContain(above);
		expect(skills[0]?.sourceInfo).toMatchObject({
			source: "auto",
			scope: "project",
			baseDir: join(repo, "project", ".agents"),
		});
		expect(skills[2]?.sourceInfo).toMatchObject({ scope: "user", baseDir: join(home, ".agents") });
	});

	it("reports the four missing CLI paths as errors", async () => {
		const { root, make } = setup();
		const missing = (name: string) => join(root, name);
		const loader = make({
			loadExtensions: fakeExtensionLoader().load,
			additionalExtensionPaths: [missing("ext.ts"), "builtin:nope"],
			additionalSkillPaths: [missing("skill")],
			additionalPromptTemplatePaths: [missing("prompt.md")],
			additionalThemePaths: [missing("theme.json")],
		});
		await loader.reload();
		expect(loader.getExtensions().errors).toEqual([
			{ path: missing("ext.ts"), error: `Extension path does not exist: ${missing("ext.ts")}` },
			{ path: "builtin:nope", error: "Unknown built-in extension: builtin:nope" },
		]);
		expect(loader.getSkills().diagnostics).toEqual([
			{ type: "error", message: `Skill path does not exist: ${missing("skill")}`, path: missing("skill") },
		]);
		expect(loader.getPrompts().diagnostics).toEqual([
			{
				type: "error",
				message: `Prompt template path does not exist: ${missing("prompt.md")}`,
				path: missing("prompt.md"),
			},
		]);
		expect(loader.getThemes().diagnostics).toEqual([
			{ type: "error", message: `Theme path does not exist: ${missing("theme.json")}`, path: missing("theme.json") },
		]);
	});
});

describe("override hooks and extendResources", () => {
	it("passes computed defaults to the hooks and uses what they return, on reload and on extendResources", async () => {
		const { root, cwd, agentDir, make } = setup();
		skillFile(join(agentDir, "skills"), "base-skill");
		write(join(cwd, "AGENTS.md"), "project rules");
		write(join(agentDir, "SYSTEM.md"), "user system");
		write(join(agentDir, "APPEND_SYSTEM.md"), "user append");
		const seen: Record<string, unknown[]> = {};
		const record = <T>(name: string, value: T) => {
			seen[name] = [...(seen[name] ?? []), value];
		};
		const loader = make({
			skillsOverride: (base) => {
				record(
					"skills",
					base.skills.map((skill) => skill.name),
				);
				return { skills: base.skills.filter((skill) => skill.name !== "base-skill"), diagnostics: [] };
			},
			promptsOverride: (base) => {
				record(
					"prompts",
					base.prompts.map((prompt) => prompt.name),
				);
				return base;
			},
			themesOverride: (base) => ({ themes: base.themes, diagnostics: [] }),
			agentsFilesOverride: (base) => {
				record(
					"agents",
					base.agentsFiles.map((file) => file.content),
				);
				return { agentsFiles: [] };
			},
			systemPromptOverride: (base) => {
				record("system", base);
				return "product prompt";
			},
			appendSystemPromptOverride: (base) => {
				record("append", base);
				return ["product rules"];
			},
			extensionsOverride: (base) => {
				record("extensions", base.extensions.length);
				return { ...base, extensions: [] };
			},
		});
		await loader.reload();
		expect(seen).toEqual({
			skills: [["base-skill"]],
			prompts: [[]],
			agents: [["project rules"]],
			system: ["user system"],
			append: [["user append"]],
			extensions: [0],
		});
		expect(loader.getSkills().skills).toEqual([]);
		expect(loader.getAgentsFiles().agentsFiles).toEqual([]);
		expect(loader.getSystemPrompt()).toBe("product prompt");
		expect(loader.getSystemPromptSource()).toBeUndefined();
		expect(loader.getAppendSystemPrompt()).toEqual(["product rules"]);

		const added = skillFile(join(root, "added"), "added-skill");
		write(join(root, "added-prompts", "hello.md"), "Hello");
		loader.extendResources({
			skillPaths: [
				{ path: join(root, "added"), metadata: { source: "extension:x", scope: "temporary", origin: "top-level" } },
			],
			promptPaths: [
				{
					path: join(root, "added-prompts"),
					metadata: { source: "extension:x", scope: "temporary", origin: "top-level" },
				},
			],
		});
		expect(seen.skills?.at(-1)).toEqual(["base-skill", "added-skill"]);
		expect(loader.getSkills().skills.map((skill) => skill.filePath)).toEqual([added]);
		expect(loader.getSkills().skills[0]?.sourceInfo.source).toBe("extension:x");
		expect(loader.getPrompts().prompts.map((prompt) => prompt.name)).toEqual(["hello"]);
	});

	it("adds resources without reloading extensions and ignores duplicate paths", async () => {
		const { root, agentDir, make } = setup();
		write(join(agentDir, "extensions", "a.ts"), "");
		const fake = fakeExtensionLoader();
		const loader = make({ loadExtensions: fake.load });
		await loader.reload();
		expect(fake.requests).toHaveLength(1);
		skillFile(join(root, "more"), "more");
		const metadata = { source: "extension:a", scope: "temporary" as const, origin: "top-level" as const };
		loader.extendResources({ skillPaths: [{ path: join(root, "more"), metadata }] });
		loader.extendResources({ skillPaths: [{ path: join(root, "more"), metadata }] });
		writeJson(join(root, "t", "t.json"), completeTheme("t", 7));
		loader.extendResources({ themePaths: [{ path: join(root, "t"), metadata }] });
		expect(fake.requests).toHaveLength(1);
		expect(loader.getSkills()).toEqual({ skills: [expect.objectContaining({ name: "more" })], diagnostics: [] });
		expect(loader.getThemes().themes.map((theme) => theme.name)).toEqual(["t"]);
	});

	it("rebuilds everything on reload", async () => {
		const { agentDir, make } = setup();
		const loader = make();
		await loader.reload();
		expect(loader.getSkills().skills).toEqual([]);
		skillFile(join(agentDir, "skills"), "later");
		write(join(agentDir, "SYSTEM.md"), "new system");
		await loader.reload();
		expect(loader.getSkills().skills.map((skill) => skill.name)).toEqual(["later"]);
		expect(loader.getSystemPrompt()).toBe("new system");
		expect(loader.getSystemPromptSource()).toEqual({ path: join(agentDir, "SYSTEM.md") });
	});
});

describe("system prompt files", () => {
	it("prefers a trusted project SYSTEM.md and uses the user's when untrusted", async () => {
		const { cwd, agentDir, make } = setup();
		write(join(agentDir, "SYSTEM.md"), "user system");
		write(join(cwd, ".tau", "SYSTEM.md"), "project system");
		write(join(agentDir, "APPEND_SYSTEM.md"), "user append");
		write(join(cwd, ".tau", "APPEND_SYSTEM.md"), "project append");
		const trusted = make({ settingsManager: SettingsManager.inMemory({}, { projectTrusted: true }) });
		await trusted.reload();
		expect(trusted.getSystemPrompt()).toBe("project system");
		expect(trusted.getAppendSystemPrompt()).toEqual(["project append"]);
		const untrusted = make({ settingsManager: SettingsManager.inMemory({}, { projectTrusted: false }) });
		await untrusted.reload();
		expect(untrusted.getSystemPrompt()).toBe("user system");
		expect(untrusted.getAppendSystemPrompt()).toEqual(["user append"]);
		expect(untrusted.getAppendSystemPromptSources()).toEqual([{ path: join(agentDir, "APPEND_SYSTEM.md") }]);
	});

	it("reads --system-prompt as a file when one exists, else as text; repeated appends stay in order", async () => {
		const { root, agentDir, make } = setup();
		write(join(agentDir, "SYSTEM.md"), "user system");
		write(join(agentDir, "APPEND_SYSTEM.md"), "user append");
		const file = write(join(root, "prompt.md"), "\uFEFFfrom file");
		const fromFile = make({ systemPrompt: file, appendSystemPrompt: ["first", file] });
		await fromFile.reload();
		expect(fromFile.getSystemPrompt()).toBe("from file");
		expect(fromFile.getSystemPromptSource()).toEqual({ path: file });
		expect(fromFile.getAppendSystemPrompt()).toEqual(["first", "from file"]);
		expect(fromFile.getAppendSystemPromptSources()).toEqual([{ path: file }]);
		const fromText = make({ systemPrompt: join(root, "missing.md") });
		await fromText.reload();
		expect(fromText.getSystemPrompt()).toBe(join(root, "missing.md"));
		expect(fromText.getSystemPromptSource()).toBeUndefined();
		expect(fromText.getAppendSystemPrompt()).toEqual(["user append"]);
	});
});

describe("settings resource arrays", () => {
	it("collects plain paths and filters them with !glob, +exact and -exact, keeping disabled files", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const dir = join(agentDir, "my-skills");
		const keep = skillFile(dir, "keep");
		const old = skillFile(dir, "old-skill");
		const back = skillFile(dir, "back");
		const forced = skillFile(dir, "forced-off");
		const settings = SettingsManager.inMemory({
			skills: [
				"my-skills",
				"!old-skill",
				"!back",
				"!forced-off",
				"+my-skills/back",
				"+my-skills/forced-off",
				"-my-skills/forced-off",
			],
		});
		const resolver = new PackageResolver({ cwd, agentDir, settings, homeDir: home });
		const skills = resolver.resolve().resolved.skills.filter((entry) => entry.metadata.source === "local");
		expect(skills.map((entry) => [entry.path, entry.enabled])).toEqual([
			[back, true],
			[forced, false],
			[keep, true],
			[old, false],
		]);
		expect(skills[0]?.metadata).toEqual({ source: "local", scope: "user", origin: "top-level", baseDir: agentDir });
	});

	it("keeps only plain-glob matches when include globs are present", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const a = write(join(agentDir, "p", "alpha.md"), "a");
		const b = write(join(agentDir, "p", "beta.md"), "b");
		const settings = SettingsManager.inMemory({ prompts: ["p", "p/a*.md"] });
		const resolver = new PackageResolver({ cwd, agentDir, settings, homeDir: home });
		const prompts = resolver.resolve().resolved.prompts;
		expect(prompts.map((entry) => [entry.path, entry.enabled])).toEqual([
			[a, true],
			[b, false],
		]);
	});

	it("disables auto-discovered resources only through the same scope's override entries", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const userSkill = skillFile(join(agentDir, "skills"), "user-one");
		const projectSkill = skillFile(join(cwd, ".tau", "skills"), "project-one");
		const userPrompt = write(join(agentDir, "prompts", "p.md"), "p");
		const settings = SettingsManager.inMemory({ skills: ["!project-one", "-skills/user-one"], prompts: ["prompts"] });
		const resolver = new PackageResolver({ cwd, agentDir, settings, homeDir: home });
		const { skills, prompts } = resolver.resolve().resolved;
		const enabled = (path: string) => skills.find((entry) => entry.path === path)?.enabled;
		expect(enabled(userSkill)).toBe(false);
		expect(enabled(projectSkill)).toBe(true);
		// A plain entry naming the auto directory collects it as a settings entry (rank above auto).
		expect(prompts.filter((entry) => entry.path === userPrompt).map((entry) => entry.metadata.source)).toEqual([
			"local",
		]);
	});

	it("toggles built-in extensions: user -builtin disables, project entries decide with the last one winning", () => {
		const { cwd, agentDir, home } = resourceDirs();
		write(join(cwd, ".tau", "settings.json"), JSON.stringify({ extensions: ["-builtin:mcp", "+builtin:mcp"] }));
		write(join(agentDir, "settings.json"), JSON.stringify({ extensions: ["-builtin:mcp", "-builtin:codemode"] }));
		const resolve = (trusted: boolean) => {
			const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: trusted });
			const resolver = new PackageResolver({
				cwd,
				agentDir,
				settings,
				homeDir: home,
				builtinExtensionNames: ["mcp", "codemode"],
			});
			return resolver
				.resolve()
				.resolved.extensions.map((entry) => [entry.path, entry.enabled, entry.metadata.scope]);
		};
		expect(resolve(true)).toEqual([
			["builtin:mcp", true, "project"],
			["builtin:codemode", false, "user"],
		]);
		expect(resolve(false)).toEqual([
			["builtin:mcp", false, "user"],
			["builtin:codemode", false, "user"],
		]);
	});
});

describe("directory scanning", () => {
	it("honours .fdignore and nested ignore files with negations in configured prompt folders", async () => {
		const { root, agentDir, make } = setup();
		const dir = join(root, "team-prompts");
		write(join(dir, "keep.md"), "k");
		write(join(dir, "draft.md"), "d");
		write(join(dir, "sub", "a.md"), "a");
		write(join(dir, "sub", "b.md"), "b");
		write(join(dir, "sub", "important.md"), "i");
		write(join(dir, ".fdignore"), "draft.md\n");
		write(join(dir, "sub", ".gitignore"), "*.md\n!important.md\n");
		writeJson(join(agentDir, "settings.json"), { prompts: [dir] });
		const loader = make();
		await loader.reload();
		expect(
			loader
				.getPrompts()
				.prompts.map((prompt) => prompt.name)
				.sort(),
		).toEqual(["important", "keep"]);
	});
});

describe("extension discovery", () => {
	it("follows directory rules: manifest entries, index.ts before index.js, one level of subdirectories", async () => {
		const { agentDir, make } = setup();
		const ext = join(agentDir, "extensions");
		const direct = write(join(ext, "direct.ts"), "");
		const directJs = write(join(ext, "plain.js"), "");
		write(join(ext, "notes.md"), "");
		writeJson(join(ext, "manifest-pkg", "package.json"), { pi: { extensions: ["./src/a.ts", "./missing.ts"] } });
		const manifestEntry = write(join(ext, "manifest-pkg", "src", "a.ts"), "");
		write(join(ext, "manifest-pkg", "index.ts"), "");
		const indexTs = write(join(ext, "both", "index.ts"), "");
		write(join(ext, "both", "index.js"), "");
		const indexJs = write(join(ext, "js-only", "index.js"), "");
		write(join(ext, "no-entry", "helper.ts"), "");
		write(join(ext, "deep", "nested", "index.ts"), "");
		write(join(ext, ".hidden.ts"), "");
		const fake = fakeExtensionLoader();
		const loader = make({ loadExtensions: fake.load });
		await loader.reload();
		expect(
			loader
				.getExtensions()
				.extensions.map((extension) => extension.path)
				.sort(),
		).toEqual([indexTs, direct, indexJs, manifestEntry, directJs].sort());
		expect(loader.getExtensions().extensions[0]?.sourceInfo).toMatchObject({ source: "auto", scope: "user" });
	});

	it("orders CLI, project, user, package and built-in extensions, then inline factories", async () => {
		const { root, cwd, agentDir, make } = setup();
		const cli = write(join(root, "cli.ts"), "");
		const projectAuto = write(join(cwd, ".tau", "extensions", "p.ts"), "");
		const userExplicit = write(join(root, "user-explicit.ts"), "");
		const userAuto = write(join(agentDir, "extensions", "u.ts"), "");
		const pkg = join(root, "pkg");
		const packaged = write(join(pkg, "extensions", "k.ts"), "");
		writeJson(join(agentDir, "settings.json"), { extensions: [userExplicit], packages: [pkg] });
		const loader = make({
			loadExtensions: fakeExtensionLoader().load,
			settingsManager: SettingsManager.create(cwd, agentDir),
			additionalExtensionPaths: [cli],
			extensionFactories: [
				{ name: "named", factory: () => {} },
				() => {},
				{ name: "tool-search", factory: () => {}, builtin: true },
			],
		});
		await loader.reload();
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			cli,
			projectAuto,
			userExplicit,
			userAuto,
			packaged,
			"builtin:tool-search",
			"<inline:named>",
			"<inline:2>",
		]);
		expect(
			loader.getExtensionLoadItems().map((item) => [item.path, item.sourceInfo.source, item.sourceInfo.scope]),
		).toEqual([
			[cli, "cli", "temporary"],
			[projectAuto, "auto", "project"],
			[userExplicit, "local", "user"],
			[userAuto, "auto", "user"],
			[packaged, pkg, "user"],
			["builtin:tool-search", "builtin", "user"],
			["<inline:named>", "inline", "temporary"],
			["<inline:2>", "inline", "temporary"],
		]);
		expect(loader.getExtensionLoadItems()[5]?.factory).toBeTypeOf("function");
		expect(loader.getExtensions().extensions[4]?.sourceInfo).toEqual({
			path: packaged,
			source: pkg,
			scope: "user",
			origin: "package",
			baseDir: pkg,
			packageRoot: pkg,
		});
	});

	it("reports tool and flag conflicts as errors and drops a replaced replaceable built-in with a warning", async () => {
		const { agentDir, make } = setup();
		const first = write(join(agentDir, "extensions", "a-first.ts"), "");
		const second = write(join(agentDir, "extensions", "b-second.ts"), "");
		const fake = fakeExtensionLoader({
			"a-first.ts": { tools: ["shared"], flags: ["verbose"], commands: ["mcp"] },
			"b-second.ts": { tools: ["shared"], flags: ["verbose"] },
			"builtin:mcp": { commands: ["mcp"], tools: ["mcp"] },
			"builtin:codemode": { tools: ["codemode"] },
		});
		const loader = make({
			loadExtensions: fake.load,
			extensionFactories: [
				{ name: "mcp", factory: () => {}, builtin: true, replaceable: true },
				{ name: "codemode", factory: () => {}, builtin: true, replaceable: true },
			],
		});
		await loader.reload();
		const result = loader.getExtensions();
		expect(result.extensions.map((extension) => extension.path)).toEqual([first, second, "builtin:codemode"]);
		expect(result.errors).toEqual([
			{ path: second, error: `Tool "shared" conflicts with ${first}` },
			{ path: second, error: `Flag "--verbose" conflicts with ${first}` },
		]);
		expect(result.warnings).toEqual([
			{
				type: "warning",
				message: `The built-in mcp extension was not loaded because ${first} registers command "mcp". To use it, enable it in tau config and disable the other extension.`,
				path: "builtin:mcp",
			},
		]);
	});

	it("drops built-in codemode and tool-search only when another extension registers their tools", async () => {
		const { agentDir, make } = setup();
		const factories: InlineExtension[] = [
			{ name: "codemode", factory: () => {}, builtin: true, replaceable: true },
			{ name: "tool-search", factory: () => {}, builtin: true, replaceable: true },
		];
		const builtins = {
			"builtin:codemode": { tools: ["codemode"] },
			"builtin:tool-search": { tools: ["tool_search"] },
		};
		const untouched = make({ loadExtensions: fakeExtensionLoader(builtins).load, extensionFactories: factories });
		await untouched.reload();
		expect(untouched.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			"builtin:codemode",
			"builtin:tool-search",
		]);
		expect(untouched.getExtensions().warnings ?? []).toEqual([]);

		const own = write(join(agentDir, "extensions", "own.ts"), "");
		const replaced = make({
			loadExtensions: fakeExtensionLoader({ ...builtins, "own.ts": { tools: ["codemode", "tool_search"] } }).load,
			extensionFactories: factories,
		});
		await replaced.reload();
		expect(replaced.getExtensions().extensions.map((extension) => extension.path)).toEqual([own]);
		expect(replaced.getExtensions().warnings?.map((warning) => warning.message)).toEqual([
			`The built-in codemode extension was not loaded because ${own} registers tool "codemode". To use it, enable it in tau config and disable the other extension.`,
			`The built-in tool-search extension was not loaded because ${own} registers tool "tool_search". To use it, enable it in tau config and disable the other extension.`,
		]);
	});

	it("warns about a configured package that cannot be installed and still loads everything else", async () => {
		const { root, agentDir, make } = setup();
		const ok = write(join(agentDir, "extensions", "ok.ts"), "");
		// Offline: the npm package is not installed and nothing is spawned.
		vi.stubEnv("TAU_OFFLINE", "1");
		onTestFinished(() => {
			vi.unstubAllEnvs();
		});
		writeJson(join(agentDir, "settings.json"), { packages: ["npm:not-installed-pkg", join(root, "gone")] });
		const loader = make({ loadExtensions: fakeExtensionLoader().load });
		await loader.reload();
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([ok]);
		expect(loader.getExtensions().warnings?.map((warning) => warning.message)).toEqual([
			'Extension package "npm:not-installed-pkg": failed to install (offline mode). Run "tau remove npm:not-installed-pkg" to remove it from settings.json.',
			`Extension package "${join(root, "gone")}": failed to install (Path does not exist: ${join(root, "gone")}). Run "tau remove ${join(root, "gone")}" to remove it from settings.json.`,
		]);
	});

	it("retries a package that failed at startup on the next reload", async () => {
		const { root, agentDir, make } = setup();
		const pkg = join(root, "later-pkg");
		writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
		const loader = make({ loadExtensions: fakeExtensionLoader().load });
		await loader.reload();
		expect(loader.getExtensions().warnings?.length).toBe(1);
		const entry = write(join(pkg, "extensions", "late.ts"), "");
		await loader.reload();
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([entry]);
		expect(loader.getExtensions().warnings ?? []).toEqual([]);
	});
});
