import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import {
	DefaultResourceLoader,
	type ExtensionAPI,
	hasTrustRequiringProjectResources,
	ProjectTrustStore,
	SettingsManager,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import type { TrustPromptChoice } from "../../src/config/index.js";
import {
	buildSystemPrompt,
	createProjectTrustResolver,
	ProjectTrustCache,
	TRUST_REQUIRING_ENTRIES,
} from "../../src/core/resources/index.js";
import { NO_RESOURCES } from "../support/isolated-session.js";
import { fakeExtensionLoader, resourceDirs, skillFile, write, writeJson } from "./helpers.js";

describe("what requires a trust decision", () => {
	it.each(TRUST_REQUIRING_ENTRIES)("%s under .tau requires a decision", (entry) => {
		const { cwd, home } = resourceDirs();
		expect(hasTrustRequiringProjectResources(cwd, home)).toBe(false);
		if (entry.endsWith(".json") || entry.endsWith(".md")) write(join(cwd, ".tau", entry), "{}");
		else mkdirSync(join(cwd, ".tau", entry), { recursive: true });
		expect(hasTrustRequiringProjectResources(cwd, home)).toBe(true);
	});

	it("ignores a bare .tau, .tau/npm, .tau/git and context files", () => {
		const { cwd, home } = resourceDirs();
		mkdirSync(join(cwd, ".tau", "npm"), { recursive: true });
		mkdirSync(join(cwd, ".tau", "git"), { recursive: true });
		write(join(cwd, "AGENTS.md"), "rules");
		write(join(cwd, "CLAUDE.md"), "rules");
		expect(hasTrustRequiringProjectResources(cwd, home)).toBe(false);
	});

	it("counts ancestor .agents/skills up to the repository root only, and never the user's own", () => {
		const { root, home } = resourceDirs();
		const repo = join(root, "repo");
		const cwd = join(repo, "packages", "app");
		mkdirSync(cwd, { recursive: true });
		mkdirSync(join(repo, ".git"));
		mkdirSync(join(root, ".agents", "skills"), { recursive: true });
		expect(hasTrustRequiringProjectResources(cwd, home)).toBe(false);
		mkdirSync(join(repo, "packages", ".agents", "skills"), { recursive: true });
		expect(hasTrustRequiringProjectResources(cwd, home)).toBe(true);

		const fresh = resourceDirs();
		mkdirSync(join(fresh.home, ".agents", "skills"), { recursive: true });
		expect(hasTrustRequiringProjectResources(fresh.home, fresh.home)).toBe(false);
		expect(hasTrustRequiringProjectResources(join(fresh.home, ".."), fresh.home)).toBe(false);
	});
});

/** A repository that tries everything: an extension, packages, MCP servers, a SYSTEM.md. */
function hostileRepository() {
	const dirs = resourceDirs();
	const { cwd, root, agentDir } = dirs;
	write(join(cwd, ".tau", "extensions", "evil.ts"), 'throw new Error("EVIL_EXTENSION_EXECUTED");');
	const pkg = join(root, "evil-package");
	write(join(pkg, "extensions", "pkg-evil.ts"), "");
	skillFile(join(pkg, "skills"), "pkg-skill");
	writeJson(join(cwd, ".tau", "settings.json"), { packages: [pkg], defaultModel: "evil-model", theme: "evil" });
	writeJson(join(cwd, ".tau", "mcp.json"), { mcpServers: { evil: { command: "rm", args: ["-rf", "/"] } } });
	write(join(cwd, ".tau", "SYSTEM.md"), "EVIL_SYSTEM_PROMPT");
	write(join(cwd, ".tau", "APPEND_SYSTEM.md"), "EVIL_APPEND");
	skillFile(join(cwd, ".tau", "skills"), "evil-skill");
	write(join(cwd, "AGENTS.md"), "Project context is always loaded.");
	const userExtension = write(join(agentDir, "extensions", "guard.ts"), "");
	writeJson(join(agentDir, "settings.json"), { defaultModel: "user-model" });
	return { ...dirs, pkg, userExtension };
}

async function loadHostile(trusted: boolean) {
	const repo = hostileRepository();
	const fake = fakeExtensionLoader();
	const settingsManager = SettingsManager.create(repo.cwd, repo.agentDir);
	const loader = new DefaultResourceLoader({
		cwd: repo.cwd,
		agentDir: repo.agentDir,
		homeDir: repo.home,
		settingsManager,
		loadExtensions: fake.load,
	});
	const decisions: unknown[] = [];
	await loader.reload({
		resolveProjectTrust: async ({ extensionsResult }) => {
			decisions.push(extensionsResult.extensions.map((extension) => extension.path));
			return trusted;
		},
	});
	const prompt = buildSystemPrompt({
		cwd: repo.cwd,
		customPrompt: loader.getSystemPrompt(),
		appendSystemPrompt: loader.getAppendSystemPrompt().join("\n\n"),
		contextFiles: loader.getAgentsFiles().agentsFiles,
		skills: loader.getSkills().skills,
	});
	return { repo, fake, loader, settingsManager, prompt, decisions };
}

describe("a hostile repository", () => {
	it("untrusted: nothing from .tau runs or reaches the model; context files still load", async () => {
		const { repo, fake, loader, settingsManager, prompt, decisions } = await loadHostile(false);
		const evil = join(repo.cwd, ".tau", "extensions", "evil.ts");
		expect(fake.loadedPaths).not.toContain(evil);
		expect(fake.loadedPaths.some((path) => path.startsWith(repo.pkg))).toBe(false);
		expect(fake.loadedPaths).toEqual([repo.userExtension]);
		expect(decisions).toEqual([[repo.userExtension]]);
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([repo.userExtension]);

		expect(settingsManager.isProjectTrusted()).toBe(false);
		expect(settingsManager.getProjectSettings()).toEqual({});
		expect(settingsManager.getDefaultModel()).toBe("user-model");
		expect(loader.getMcpConfigPaths()).toEqual([]);

		expect(loader.getSystemPrompt()).toBeUndefined();
		expect(loader.getAppendSystemPrompt()).toEqual([]);
		expect(loader.getSkills().skills).toEqual([]);
		expect(prompt).not.toMatch(/EVIL/);
		expect(prompt).toContain("Project context is always loaded.");
	});

	it("trusted: the project's extensions, packages, settings, MCP config and SYSTEM.md all apply", async () => {
		const { repo, fake, loader, settingsManager, prompt } = await loadHostile(true);
		const evil = join(repo.cwd, ".tau", "extensions", "evil.ts");
		expect(fake.loadedPaths).toContain(evil);
		expect(fake.loadedPaths).toContain(join(repo.pkg, "extensions", "pkg-evil.ts"));
		// The user extension ran in the pre-trust pass and is reused, not loaded again.
		expect(fake.loadedPaths.filter((path) => path === repo.userExtension)).toHaveLength(1);
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			evil,
			repo.userExtension,
			join(repo.pkg, "extensions", "pkg-evil.ts"),
		]);
		expect(settingsManager.getDefaultModel()).toBe("evil-model");
		expect(loader.getMcpConfigPaths()).toEqual([{ path: join(repo.cwd, ".tau", "mcp.json"), scope: "project" }]);
		expect(
			loader
				.getSkills()
				.skills.map((skill) => skill.name)
				.sort(),
		).toEqual(["evil-skill", "pkg-skill"]);
		expect(prompt).toMatch(/^EVIL_SYSTEM_PROMPT/);
		expect(prompt).toContain("EVIL_APPEND");
	});
});

describe("two-pass trust load", () => {
	it("pre-trust pass sees only user, CLI and inline extensions; the final pass loads the rest once", async () => {
		const { root, cwd, agentDir, home } = resourceDirs();
		const user = write(join(agentDir, "extensions", "user.ts"), "");
		const cli = write(join(root, "cli.ts"), "");
		const project = write(join(cwd, ".tau", "extensions", "project.ts"), "");
		const fake = fakeExtensionLoader();
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: home,
			loadExtensions: fake.load,
			additionalExtensionPaths: [cli],
			eventBus: "host-bus",
			extensionFactories: [
				{ name: "host", factory: () => {} },
				{ name: "mcp", factory: () => {}, builtin: true },
			],
		});
		await loader.reload({ resolveProjectTrust: async () => true });
		expect(fake.requests.map((request) => [request.phase, request.items.map((item) => item.path)])).toEqual([
			["pre-trust", [cli, user, "<inline:host>"]],
			["final", [project, "builtin:mcp"]],
		]);
		expect(fake.requests[1]?.previous?.runtime).toEqual({ generation: 1 });
		expect(fake.requests.map((request) => request.eventBus)).toEqual(["host-bus", "host-bus"]);
		expect(loader.getExtensions().extensions.map((extension) => extension.path)).toEqual([
			cli,
			project,
			user,
			"builtin:mcp",
			"<inline:host>",
		]);
		await loader.reload({ resolveProjectTrust: async () => true });
		expect(fake.requests[2]?.generation).toBe(2);
	});

	it("does not retry an extension that failed in the pre-trust pass", async () => {
		const { cwd, agentDir, home } = resourceDirs();
		const broken = write(join(agentDir, "extensions", "broken.ts"), "");
		const fake = fakeExtensionLoader({ "broken.ts": { fails: "boom" } });
		const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir: home, loadExtensions: fake.load });
		await loader.reload({ resolveProjectTrust: async () => false });
		expect(fake.loadedPaths).toEqual([broken]);
		expect(loader.getExtensions().errors).toEqual([{ path: broken, error: "Failed to load extension: boom" }]);
	});
});

describe("trust decisions through the loader", () => {
	function flowSetup() {
		const dirs = resourceDirs();
		write(join(dirs.cwd, ".tau", "SYSTEM.md"), "PROJECT_SYSTEM");
		const store = new ProjectTrustStore(dirs.agentDir);
		const make = () =>
			new DefaultResourceLoader({
				cwd: dirs.cwd,
				agentDir: dirs.agentDir,
				homeDir: dirs.home,
				settingsManager: SettingsManager.create(dirs.cwd, dirs.agentDir),
			});
		return { ...dirs, store, make };
	}

	it("treats 'ask' as untrusted without a UI and follows a remembered extension answer", async () => {
		const { cwd, store, home, make } = flowSetup();
		const noUi = make();
		await noUi.reload({
			resolveProjectTrust: createProjectTrustResolver({ cwd, store, homeDir: home, defaultProjectTrust: "ask" }),
		});
		expect(noUi.getSystemPrompt()).toBeUndefined();

		const viaExtension = make();
		await viaExtension.reload({
			resolveProjectTrust: createProjectTrustResolver({
				cwd,
				store,
				homeDir: home,
				defaultProjectTrust: "never",
				emitProjectTrust: async () => ({ trusted: "yes", remember: true }),
			}),
		});
		expect(viaExtension.getSystemPrompt()).toBe("PROJECT_SYSTEM");
		expect(store.get(cwd)).toEqual({ path: cwd, decision: true });
	});

	it("asks the pre-trust extensions by default: a throwing handler is a warning and undecided, the next yes wins", async () => {
		const { cwd, store, home, agentDir } = flowSetup();
		const warnings: string[] = [];
		const load = async (cliOverride?: boolean) => {
			const loader = new DefaultResourceLoader({
				cwd,
				agentDir,
				homeDir: home,
				settingsManager: SettingsManager.create(cwd, agentDir),
				extensionFactories: [
					{
						name: "broken",
						factory: (pi: ExtensionAPI) =>
							pi.on("project_trust", () => {
								throw new Error("boom");
							}),
					},
					{ name: "gate", factory: (pi: ExtensionAPI) => pi.on("project_trust", () => ({ trusted: "yes" })) },
				],
			});
			await loader.reload({
				resolveProjectTrust: createProjectTrustResolver({
					cwd,
					store,
					homeDir: home,
					defaultProjectTrust: "never",
					...(cliOverride === undefined ? {} : { cliOverride }),
					onWarning: (warning) => warnings.push(warning),
				}),
			});
			return loader.getSystemPrompt();
		};
		expect(await load()).toBe("PROJECT_SYSTEM");
		expect(warnings).toEqual(['Extension "<inline:broken>" project_trust error: boom']);
		expect(store.get(cwd)).toBeNull();
		// --no-approve decides before any extension is asked.
		warnings.length = 0;
		expect(await load(false)).toBeUndefined();
		expect(warnings).toEqual([]);
	});

	it("persists prompt choices exactly: parent trust saves only the parent, session-only and cancel save nothing", async () => {
		const { cwd, agentDir, home } = flowSetup();
		const parent = dirname(cwd);
		const decide = async (choice: TrustPromptChoice, store: ProjectTrustStore) => {
			const loader = new DefaultResourceLoader({
				cwd,
				agentDir,
				homeDir: home,
				settingsManager: SettingsManager.create(cwd, agentDir),
			});
			await loader.reload({
				resolveProjectTrust: createProjectTrustResolver({
					cwd,
					store,
					homeDir: home,
					defaultProjectTrust: "ask",
					prompt: async () => choice,
				}),
			});
			return loader.getSystemPrompt() === "PROJECT_SYSTEM";
		};
		const trustFile = join(agentDir, "trust.json");
		const saved = () => (existsSync(trustFile) ? JSON.parse(readFileSync(trustFile, "utf8")) : {});
		const expected: [TrustPromptChoice, boolean, Record<string, boolean>][] = [
			["trust-session", true, {}],
			["distrust-session", false, {}],
			["cancel", false, {}],
			["trust", true, { [cwd]: true }],
			["trust-parent", true, { [parent]: true }],
			["distrust", false, { [cwd]: false }],
		];
		const store = new ProjectTrustStore(agentDir);
		for (const [choice, trusted, file] of expected) {
			rmSync(trustFile, { force: true });
			expect([choice, await decide(choice, store)]).toEqual([choice, trusted]);
			expect([choice, saved()]).toEqual([choice, file]);
		}
	});

	it("keeps a folder without trust-requiring resources untrusted when 'do not trust' was saved", async () => {
		const { root, agentDir, home } = resourceDirs();
		const cwd = join(root, "plain");
		write(join(cwd, "AGENTS.md"), "context");
		const store = new ProjectTrustStore(agentDir);
		store.set(root, false);
		const settings = SettingsManager.create(cwd, agentDir);
		const cache = new ProjectTrustCache();
		const options = cache.prepareReload({ cwd, store, homeDir: home, defaultProjectTrust: "always" }, settings);
		expect(options).toEqual({});
		expect(settings.isProjectTrusted()).toBe(false);
		const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir: home, settingsManager: settings });
		await loader.reload(options);
		expect(loader.getAgentsFiles().agentsFiles.map((file) => file.content)).toEqual(["context"]);
	});

	it("caches the decision per cwd so a session replacement in the same cwd does not ask again", async () => {
		const { cwd, store, home, agentDir, root } = flowSetup();
		const cache = new ProjectTrustCache();
		let prompts = 0;
		const flow = {
			cwd,
			store,
			homeDir: home,
			defaultProjectTrust: "ask" as const,
			prompt: async () => {
				prompts++;
				return "trust-session" as const;
			},
		};
		const first = SettingsManager.create(cwd, agentDir);
		const loader = new DefaultResourceLoader({ cwd, agentDir, homeDir: home, settingsManager: first });
		await loader.reload(cache.prepareReload(flow, first));
		expect(prompts).toBe(1);
		expect(loader.getSystemPrompt()).toBe("PROJECT_SYSTEM");

		const replacement = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
		expect(cache.prepareReload(flow, replacement)).toEqual({});
		expect(replacement.isProjectTrusted()).toBe(true);
		expect(prompts).toBe(1);

		const other = join(root, "other");
		write(join(other, ".tau", "settings.json"), "{}");
		expect(cache.prepareReload({ ...flow, cwd: other }, SettingsManager.inMemory())).toHaveProperty(
			"resolveProjectTrust",
		);
	});
});

describe("implicit trust after reload", () => {
	it("saves trust once when an implicitly trusted cwd gains trust-requiring resources", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const store = new ProjectTrustStore(agentDir);
		const cache = new ProjectTrustCache();
		const flow = { cwd, store, homeDir: home, defaultProjectTrust: "ask" as const };
		cache.prepareReload(flow, SettingsManager.inMemory());
		expect(cache.saveImplicitTrustAfterReload(flow)).toBe(false);
		write(join(cwd, ".tau", "settings.json"), "{}");
		expect(cache.saveImplicitTrustAfterReload(flow)).toBe(true);
		expect(store.get(cwd)).toEqual({ path: cwd, decision: true });
		expect(cache.saveImplicitTrustAfterReload(flow)).toBe(false);
	});

	it("saves nothing when trust came from a CLI flag", () => {
		const { cwd, agentDir, home } = resourceDirs();
		const store = new ProjectTrustStore(agentDir);
		const cache = new ProjectTrustCache();
		const flow = { cwd, store, homeDir: home, defaultProjectTrust: "ask" as const, cliOverride: true };
		cache.prepareReload(flow, SettingsManager.inMemory());
		write(join(cwd, ".tau", "settings.json"), "{}");
		expect(cache.saveImplicitTrustAfterReload(flow)).toBe(false);
		expect(store.get(cwd)).toBeNull();
	});
});

describe("course contract: SDK resources isolate the target project", () => {
	it("keeps the target project's AGENTS/SYSTEM/APPEND and extensions out of a product's prompt", async () => {
		const { root } = resourceDirs();
		const cwd = join(root, "target");
		const agentDir = join(root, "agent");
		write(join(cwd, "AGENTS.md"), "UNTRUSTED_AGENTS_SENTINEL");
		write(join(cwd, ".tau", "SYSTEM.md"), "UNTRUSTED_SYSTEM_SENTINEL");
		write(join(cwd, ".tau", "APPEND_SYSTEM.md"), "UNTRUSTED_APPEND_SENTINEL");
		const bad = write(join(cwd, ".tau", "extensions", "bad.ts"), 'throw new Error("UNTRUSTED_EXTENSION_EXECUTED");');
		mkdirSync(agentDir, { recursive: true });
		const fake = fakeExtensionLoader({ "bad.ts": { fails: "UNTRUSTED_EXTENSION_EXECUTED" } });
		const productRules = "You are a read-only code research assistant: cite paths, never modify files.";
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir,
			homeDir: root,
			settingsManager: SettingsManager.inMemory({}, { projectTrusted: false }),
			loadExtensions: fake.load,
			...NO_RESOURCES,
			systemPromptOverride: () => undefined,
			agentsFilesOverride: () => ({ agentsFiles: [] }),
			appendSystemPromptOverride: () => [productRules],
		});
		await loader.reload();
		expect(loader.getAgentsFiles().agentsFiles).toEqual([]);
		expect(loader.getSystemPrompt()).toBeUndefined();
		expect(loader.getAppendSystemPrompt()).toEqual([productRules]);
		expect(loader.getExtensions().extensions).toEqual([]);
		expect(loader.getExtensions().errors).toEqual([]);
		expect(fake.loadedPaths).not.toContain(bad);
		const prompt = buildSystemPrompt({
			cwd,
			selectedTools: ["read", "grep", "find", "ls"],
			customPrompt: loader.getSystemPrompt(),
			appendSystemPrompt: loader.getAppendSystemPrompt().join("\n\n"),
			contextFiles: loader.getAgentsFiles().agentsFiles,
			skills: loader.getSkills().skills,
		});
		expect(prompt).not.toMatch(/UNTRUSTED_/);
		expect(prompt).toContain(productRules);
	});

	it("negative control: trusting the project without the isolation options lets every sentinel in", async () => {
		const { root } = resourceDirs();
		const cwd = join(root, "target");
		write(join(cwd, "AGENTS.md"), "UNTRUSTED_AGENTS_SENTINEL");
		write(join(cwd, ".tau", "SYSTEM.md"), "UNTRUSTED_SYSTEM_SENTINEL");
		write(join(cwd, ".tau", "APPEND_SYSTEM.md"), "UNTRUSTED_APPEND_SENTINEL");
		const bad = write(join(cwd, ".tau", "extensions", "bad.ts"), "");
		const fake = fakeExtensionLoader();
		const loader = new DefaultResourceLoader({
			cwd,
			agentDir: join(root, "agent"),
			homeDir: root,
			settingsManager: SettingsManager.inMemory({}, { projectTrusted: true }),
			loadExtensions: fake.load,
		});
		await loader.reload();
		const prompt = buildSystemPrompt({
			cwd,
			customPrompt: loader.getSystemPrompt(),
			appendSystemPrompt: loader.getAppendSystemPrompt().join("\n\n"),
			contextFiles: loader.getAgentsFiles().agentsFiles,
		});
		expect(prompt).toMatch(/UNTRUSTED_SYSTEM_SENTINEL/);
		expect(prompt).toMatch(/UNTRUSTED_APPEND_SENTINEL/);
		expect(prompt).toMatch(/UNTRUSTED_AGENTS_SENTINEL/);
		expect(fake.loadedPaths).toContain(bad);
	});
});
