import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	createProvider,
	envApiKeyAuth,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	normalizeContext,
} from "@tau/ai";
import { getBuiltinModel } from "@tau/ai/providers/all";
import { anthropicProvider } from "@tau/ai/providers/anthropic";
import {
	AuthStorage,
	createAgentSession,
	createAgentSessionServices,
	DefaultResourceLoader,
	defaultExtensionLoader,
	type ExtensionAPI,
	ModelRuntime,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedModelRuntime, isolatedResourceLoader, NO_RESOURCES, tempDir } from "../support/isolated-session.js";

function runtimeWith(...providers: ReturnType<typeof fauxProvider>[]): ModelRuntime {
	return isolatedModelRuntime(Object.fromEntries(providers.map((faux) => [faux.provider.id, faux.provider])));
}

function isolatedLoader(cwd: string, agentDir: string, settingsManager: SettingsManager, extra = {}) {
	return isolatedResourceLoader({ cwd, agentDir, settingsManager, loadExtensions: defaultExtensionLoader, ...extra });
}

function setup() {
	const cwd = tempDir();
	const agentDir = join(tempDir("tau-agent-"), "agent");
	mkdirSync(agentDir, { recursive: true });
	return { cwd, agentDir };
}

describe("createAgentSession assembly", () => {
	const saved = { cwd: process.cwd(), home: process.env.HOME, agentDir: process.env.TAU_CODING_AGENT_DIR };
	afterEach(() => {
		process.chdir(saved.cwd);
		process.env.HOME = saved.home;
		if (saved.agentDir === undefined) delete process.env.TAU_CODING_AGENT_DIR;
		else process.env.TAU_CODING_AGENT_DIR = saved.agentDir;
	});

	it("without options uses process.cwd(), the agent dir, file settings, a persistent session and the default tools", async () => {
		const { cwd } = setup();
		const home = tempDir("tau-home-");
		process.env.HOME = home;
		delete process.env.TAU_CODING_AGENT_DIR;
		const agentDir = join(home, ".tau", "agent");
		mkdirSync(agentDir, { recursive: true });
		writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultThinkingLevel: "low" }));
		process.chdir(cwd);
		const { session } = await createAgentSession();
		try {
			expect(session.cwd).toBe(realpathSync(cwd));
			expect(session.sessionManager.isPersisted()).toBe(true);
			expect(session.sessionManager.getSessionDir().startsWith(agentDir)).toBe(true);
			expect(session.settingsManager.getDefaultThinkingLevel()).toBe("low");
			expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
		} finally {
			session.dispose();
		}
	});

	it("an explicit model wins; a resumed session restores its model; an unrestorable one falls back with a message", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider({ models: [{ id: "a" }, { id: "b" }] });
		const modelRuntime = runtimeWith(faux);
		const settingsManager = SettingsManager.inMemory({ defaultProvider: "faux", defaultModel: "a" });
		const resourceLoader = await isolatedLoader(cwd, agentDir, settingsManager);
		const base = { cwd, agentDir, modelRuntime, settingsManager, resourceLoader };

		const sessionManager = SessionManager.inMemory(cwd);
		const first = await createAgentSession({ ...base, sessionManager, model: faux.getModel("b")! });
		expect(first.session.model?.id).toBe("b");
		faux.setResponses([fauxAssistantMessage("hi")]);
		await first.session.prompt("hello");
		first.session.dispose();

		const resumed = await createAgentSession({ ...base, sessionManager });
		expect(resumed.session.model?.id).toBe("b");
		expect(resumed.modelFallbackMessage).toBeUndefined();
		resumed.session.dispose();

		const explicit = await createAgentSession({ ...base, sessionManager, model: faux.getModel("a")! });
		expect(explicit.session.model?.id).toBe("a");
		explicit.session.dispose();

		const gone = SessionManager.inMemory(cwd);
		gone.appendModelChange("vanished", "x");
		gone.appendMessage({ role: "user", content: "old", timestamp: Date.now() });
		const fallback = await createAgentSession({ ...base, sessionManager: gone });
		expect(fallback.modelFallbackMessage).toBe("Could not restore model vanished/x. Using faux/a");
		expect(fallback.session.model?.id).toBe("a");
		fallback.session.dispose();

		// A registered model whose provider has no configured credentials is not restored either.
		modelRuntime.registerProvider(
			"locked",
			createProvider({
				id: "locked",
				auth: { apiKey: envApiKeyAuth("Locked", ["TAU_TEST_LOCKED_PROVIDER_KEY_THAT_IS_NOT_SET"]) },
				models: [{ ...faux.getModel("a")!, provider: "locked", id: "locked-1" }],
				api: faux.provider as never,
			}),
		);
		const keyless = SessionManager.inMemory(cwd);
		keyless.appendModelChange("locked", "locked-1");
		keyless.appendMessage({ role: "user", content: "old", timestamp: Date.now() });
		const noAuth = await createAgentSession({ ...base, sessionManager: keyless });
		expect(noAuth.modelFallbackMessage).toBe("Could not restore model locked/locked-1. Using faux/a");
		expect(`${noAuth.session.model?.provider}/${noAuth.session.model?.id}`).toBe("faux/a");
		noAuth.session.dispose();
	});

	it("with no models at all reports 'No models available' and thinking off", async () => {
		const { cwd, agentDir } = setup();
		const settingsManager = SettingsManager.inMemory();
		const result = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime: runtimeWith(),
			settingsManager,
			resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
			sessionManager: SessionManager.inMemory(cwd),
		});
		expect(result.modelFallbackMessage).toMatch(/^No models available/);
		expect(result.session.thinkingLevel).toBe("off");
		// No stand-in model anywhere: neither the session nor the agent state claims one.
		expect(result.session.model).toBeUndefined();
		expect(result.session.state.model).toBeUndefined();
		await expect(result.session.prompt("hi")).rejects.toThrow(
			"No model selected. Set an API key in the environment (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to models.json in the agent directory or sign in with /login, then select a model with /model (RPC: set_model).",
		);
		await expect(result.session.compact()).rejects.toThrow(/No model selected/);
	});

	it("thinking level: explicit > recorded > per-model > default > medium, clamped to the model", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider({ models: [{ id: "r", reasoning: true }, { id: "plain" }] });
		const modelRuntime = runtimeWith(faux);
		const make = async (settings: Record<string, unknown>, options: Record<string, unknown> = {}) => {
			const settingsManager = SettingsManager.inMemory(settings);
			const { session } = await createAgentSession({
				cwd,
				agentDir,
				modelRuntime,
				settingsManager,
				resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
				sessionManager: SessionManager.inMemory(cwd),
				model: faux.getModel("r")!,
				...options,
			});
			session.dispose();
			return session;
		};
		expect((await make({})).thinkingLevel).toBe("medium");
		expect((await make({ defaultThinkingLevel: "low" })).thinkingLevel).toBe("low");
		expect(
			(await make({ defaultThinkingLevel: "low", modelThinkingLevels: { "faux/r": "high" } })).thinkingLevel,
		).toBe("high");
		expect((await make({ defaultThinkingLevel: "low" }, { thinkingLevel: "minimal" })).thinkingLevel).toBe("minimal");
		expect((await make({}, { model: faux.getModel("plain")!, thinkingLevel: "high" })).thinkingLevel).toBe("off");
		// A reasoning model without xhigh (off..high) clamps an explicit or default xhigh down to high.
		expect((await make({}, { thinkingLevel: "xhigh" })).thinkingLevel).toBe("high");
		expect((await make({ defaultThinkingLevel: "xhigh" })).thinkingLevel).toBe("high");

		const recorded = SessionManager.inMemory(cwd);
		recorded.appendThinkingLevelChange("low");
		recorded.appendMessage({ role: "user", content: "x", timestamp: Date.now() });
		expect((await make({ defaultThinkingLevel: "high" }, { sessionManager: recorded })).thinkingLevel).toBe("low");
	});

	it("records model_change + thinking_level_change for a new session and backfills thinking for an old one", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider();
		const settingsManager = SettingsManager.inMemory();
		const base = {
			cwd,
			agentDir,
			modelRuntime: runtimeWith(faux),
			settingsManager,
			resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
		};
		const fresh = SessionManager.inMemory(cwd);
		(await createAgentSession({ ...base, sessionManager: fresh, model: faux.getModel() })).session.dispose();
		expect(fresh.getEntries().map((entry) => entry.type)).toEqual(["model_change", "thinking_level_change"]);

		const old = SessionManager.inMemory(cwd);
		old.appendMessage({ role: "user", content: "x", timestamp: Date.now() });
		(await createAgentSession({ ...base, sessionManager: old, model: faux.getModel() })).session.dispose();
		expect(old.getEntries().map((entry) => entry.type)).toEqual(["message", "thinking_level_change"]);
	});

	it("setThinkingLevel persists the requested level, records the clamped one, and appends nothing when unchanged", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider({ models: [{ id: "thinker", reasoning: true }] });
		const settingsManager = SettingsManager.inMemory();
		const sessionManager = SessionManager.inMemory(cwd);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime: runtimeWith(faux),
			settingsManager,
			sessionManager,
			model: faux.getModel(),
			resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
		});
		const levelEntries = () =>
			sessionManager
				.getEntries()
				.flatMap((entry) => (entry.type === "thinking_level_change" ? [entry.thinkingLevel] : []));
		const before = levelEntries().length;
		// Without an explicit mapping the model supports off..high: "max" clamps down to "high".
		session.setThinkingLevel("max", { persist: true });
		expect(settingsManager.getDefaultThinkingLevel()).toBe("max");
		expect(session.thinkingLevel).toBe("high");
		expect(levelEntries().slice(before)).toEqual(["high"]);
		session.setThinkingLevel("xhigh");
		expect(levelEntries().slice(before)).toEqual(["high"]);
		session.dispose();
	});

	it("setModel refuses a model whose provider has no credentials and records nothing", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider();
		const settingsManager = SettingsManager.inMemory();
		const sessionManager = SessionManager.inMemory(cwd);
		const modelRuntime = new ModelRuntime({
			credentials: AuthStorage.inMemory(),
			builtinProviders: [anthropicProvider()],
			modelsJsonPath: null,
		});
		modelRuntime.registerProvider(faux.provider.id, faux.provider);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime,
			settingsManager,
			sessionManager,
			model: faux.getModel(),
			resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
		});
		const entriesBefore = sessionManager.getEntries().length;
		const keyless = getBuiltinModel("anthropic", "claude-opus-5-5")!;
		await expect(session.setModel(keyless)).rejects.toThrow("No API key for anthropic/claude-opus-5-5");
		expect(session.model?.id).toBe(faux.getModel().id);
		expect(sessionManager.getEntries()).toHaveLength(entriesBefore);
		session.dispose();
	});

	it("tool selection: allowlist, modifiers, invalid mixes, noTools and excludeTools", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider();
		const settingsManager = SettingsManager.inMemory();
		const extensionLoader = await isolatedLoader(cwd, agentDir, settingsManager, {
			extensionFactories: [
				(pi: ExtensionAPI) => {
					pi.registerTool({
						name: "mcp__srv__lookup",
						label: "MCP lookup",
						description: "an MCP-backed tool",
						parameters: { type: "object", properties: {} } as never,
						execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
					});
					pi.registerTool({
						name: "ext_tool",
						label: "Ext",
						description: "an extension tool",
						parameters: { type: "object", properties: {} } as never,
						execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
					});
				},
			],
		});
		const tools = async (options: Record<string, unknown>) => {
			const { session } = await createAgentSession({
				cwd,
				agentDir,
				modelRuntime: runtimeWith(faux),
				settingsManager,
				resourceLoader: extensionLoader,
				sessionManager: SessionManager.inMemory(cwd),
				model: faux.getModel(),
				...options,
			});
			session.dispose();
			return { active: session.getActiveToolNames(), all: session.getAllTools().map((tool) => tool.name) };
		};
		const allow = await tools({ tools: ["read", "grep"] });
		expect(allow.active).toEqual(["read", "grep"]);
		// MCP tools stay registered (reachable through codemode / tool_search) under a plain allowlist.
		expect(allow.all.sort()).toEqual(["grep", "mcp__srv__lookup", "read"]);
		const mcpFiltered = await tools({ tools: ["read", "mcp__other__*"] });
		expect(mcpFiltered.all).toEqual(["read"]);
		const modified = await tools({ tools: ["+grep", "-write"] });
		expect(modified.active.filter((name) => !name.startsWith("mcp__"))).toEqual([
			"read",
			"bash",
			"edit",
			"grep",
			"ext_tool",
		]);
		await expect(tools({ tools: ["read", "+grep"] })).rejects.toThrow(/^Invalid tools option: /);
		await expect(tools({ tools: ["+gr*"] })).rejects.toThrow(/^Invalid tools option: /);
		expect((await tools({ noTools: "builtin" })).active).toEqual(["mcp__srv__lookup", "ext_tool"]);
		const none = await tools({ noTools: "all" });
		expect(none.active).toEqual([]);
		expect(none.all).toEqual([]);
		const excluded = await tools({ tools: ["read", "grep"], excludeTools: ["grep"] });
		expect(excluded.active).toEqual(["read"]);
		expect(excluded.all.sort()).toEqual(["mcp__srv__lookup", "read"]);
	});

	it("request options: provider retry settings and the idle timeout, an explicit timeout winning", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider();
		const modelRuntime = runtimeWith(faux);
		const settingsManager = SettingsManager.inMemory({
			httpIdleTimeoutMs: 45_000,
			retry: { provider: { maxRetries: 2, maxRetryDelayMs: 5_000 } },
		});
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime,
			settingsManager,
			resourceLoader: await isolatedLoader(cwd, agentDir, settingsManager),
			sessionManager: SessionManager.inMemory(cwd),
			model: faux.getModel(),
		});
		const sent: Record<string, unknown>[] = [];
		const streamSimple = modelRuntime.models.streamSimple.bind(modelRuntime.models);
		modelRuntime.models.streamSimple = (model, context, options) => {
			sent.push({ ...options });
			return streamSimple(model, context, options);
		};
		faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await session.prompt("hi");
		expect(sent[0]).toMatchObject({ timeoutMs: 45_000, maxRetries: 2, maxRetryDelayMs: 5_000 });
		await session.agent.streamFunction(faux.getModel(), normalizeContext({ messages: [] }), { timeoutMs: 10 });
		expect(sent[1]).toMatchObject({ timeoutMs: 10 });
		session.dispose();
	});

	it("an extension-registered provider model is resolvable as the initial model", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider({ provider: "ext-provider", models: [{ id: "ext-model" }] });
		const settingsManager = SettingsManager.inMemory({ defaultProvider: "ext-provider", defaultModel: "ext-model" });
		const resourceLoader = await isolatedLoader(cwd, agentDir, settingsManager, {
			extensionFactories: [
				(pi: ExtensionAPI) => {
					pi.registerProvider("ext-provider", faux.provider as never);
				},
			],
		});
		const result = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime: runtimeWith(),
			settingsManager,
			resourceLoader,
			sessionManager: SessionManager.inMemory(cwd),
		});
		expect(result.modelFallbackMessage).toBeUndefined();
		expect(`${result.session.model?.provider}/${result.session.model?.id}`).toBe("ext-provider/ext-model");
		result.session.dispose();
	});

	it("a DefaultResourceLoader given only extensionFactories runs them (the SDK recipe): the policy blocks bash", async () => {
		const { cwd, agentDir } = setup();
		const faux = fauxProvider({ models: [{ id: "faux-1" }] });
		const settingsManager = SettingsManager.inMemory({}, { projectTrusted: false });
		const resourceLoader = new DefaultResourceLoader({
			cwd,
			agentDir,
			settingsManager,
			extensionFactories: [
				{
					name: "policy",
					factory: (pi: ExtensionAPI) => {
						pi.on("tool_call", async (event) =>
							event.toolName === "bash" ? { block: true, reason: "no shell" } : undefined,
						);
					},
				},
			],
		});
		await resourceLoader.reload();
		expect(resourceLoader.getExtensions().extensions.map((extension) => extension.path)).toEqual(["<inline:policy>"]);
		const { session } = await createAgentSession({
			cwd,
			agentDir,
			modelRuntime: runtimeWith(faux),
			settingsManager,
			resourceLoader,
			sessionManager: SessionManager.inMemory(cwd),
		});
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo ran > ran.txt" })], { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await session.prompt("run it");
		const result = session.messages.find((message) => message.role === "toolResult");
		expect(result).toMatchObject({ isError: true });
		expect(JSON.stringify(result)).toContain("no shell");
		expect(existsSync(join(cwd, "ran.txt"))).toBe(false);
		session.dispose();
	});

	it("services report unknown flags, value-less string flags and failing provider registrations as diagnostics", async () => {
		const { cwd, agentDir } = setup();
		const services = await createAgentSessionServices({
			cwd,
			agentDir,
			modelRuntime: runtimeWith(),
			settingsManager: SettingsManager.inMemory(),
			extensionFlagValues: new Map<string, boolean | string>([
				["needs-value", true],
				["mystery", true],
			]),
			resourceLoaderOptions: {
				...NO_RESOURCES,
				extensionFactories: [
					(pi: ExtensionAPI) => {
						pi.registerFlag("needs-value", { type: "string", description: "x" });
						pi.registerProvider("broken", {} as never);
					},
				],
			},
		});
		const messages = services.diagnostics.map((diagnostic) => `${diagnostic.type}: ${diagnostic.message}`);
		expect(messages).toContain('error: Extension flag "--needs-value" requires a value');
		expect(messages).toContain("error: Unknown option(s): --mystery");
		expect(messages.some((message) => message.startsWith('error: Extension "<inline:1>" error:'))).toBe(true);
	});
});
