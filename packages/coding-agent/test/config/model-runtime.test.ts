import { join } from "node:path";
import { AuthStorage, ModelRegistry, ModelRuntime } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs, writeText } from "./helpers.js";
import { recordingProvider } from "./runtime-fixtures.js";

const saved = { ...process.env };
afterEach(() => {
	process.env = { ...saved };
});

function runtimeWith(modelsJson: unknown, auth: Record<string, unknown> = {}) {
	const { agentDir } = tempDirs();
	if (modelsJson !== undefined) writeText(join(agentDir, "models.json"), JSON.stringify(modelsJson));
	const acme = recordingProvider("acme", { envVars: ["ACME_API_KEY"] });
	const other = recordingProvider("other", { envVars: ["OTHER_API_KEY"] });
	const runtime = new ModelRuntime({
		agentDir,
		credentials: AuthStorage.inMemory(auth as never),
		builtinProviders: [acme.provider, other.provider],
	});
	return { runtime, agentDir, acme, other };
}

const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

describe("credential resolution order", () => {
	it("uses runtime key > stored > models.json apiKey > env", async () => {
		process.env.ACME_API_KEY = "from-env";
		const { runtime } = runtimeWith(
			{ providers: { acme: { apiKey: "from-models-json" } } },
			{
				acme: { type: "api_key", key: "from-auth-json" },
			},
		);
		const model = runtime.getModel("acme", "acme-model")!;
		const key = async () => (await runtime.models.getAuth(model))?.auth.apiKey;
		await runtime.setRuntimeApiKey("acme", "from-runtime");
		expect(await key()).toBe("from-runtime");
		await runtime.removeRuntimeApiKey("acme");
		expect(await key()).toBe("from-auth-json");
		await runtime.credentials.delete("acme");
		expect(await key()).toBe("from-models-json");
		const envOnly = runtimeWith(undefined).runtime;
		expect((await envOnly.models.getAuth(envOnly.getModel("acme", "acme-model")!))?.auth.apiKey).toBe("from-env");
	});

	it("never falls back to env keys when a stored credential's type cannot be handled", async () => {
		process.env.ACME_API_KEY = "from-env";
		const { runtime } = runtimeWith(undefined, {
			acme: { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3_600_000 },
		});
		expect(await runtime.models.getAuth(runtime.getModel("acme", "acme-model")!)).toBeUndefined();
		await runtime.refreshAvailability();
		expect(runtime.hasConfiguredAuth("acme")).toBe(false);
	});

	it("falls through to the next source when a stored key reference does not resolve", async () => {
		process.env.ACME_API_KEY = "from-env";
		const { runtime } = runtimeWith(undefined, { acme: { type: "api_key", key: "$TAU_UNSET_REFERENCE" } });
		expect((await runtime.models.getAuth(runtime.getModel("acme", "acme-model")!))?.auth.apiKey).toBe("from-env");
	});

	it("resolves the models.json apiKey per request (commands rerun)", async () => {
		const { root } = tempDirs();
		const { runtime } = runtimeWith({
			providers: { acme: { apiKey: `!echo x >> ${root}/n; wc -l < ${root}/n` } },
		});
		const model = runtime.getModel("acme", "acme-model")!;
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("1");
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("2");
	});
});

describe("headers", () => {
	it("applies auth < provider headers < override headers < model headers, with references resolved per request", async () => {
		process.env.TAU_HDR = "resolved-value";
		const { runtime, acme } = runtimeWith({
			providers: {
				acme: {
					apiKey: "k",
					headers: { "X-Provider": "p", "X-Shared": "provider" },
					models: [{ id: "custom", headers: { "x-shared": "model", "X-Ref": "$TAU_HDR" } }],
					modelOverrides: { custom: { headers: { "X-Shared": "override", "X-Override": "o" } } },
				},
			},
		});
		const model = runtime.getModel("acme", "custom")!;
		expect(model.api).toBe(runtime.getModel("acme", "acme-model")!.api);
		const message = await runtime.models.completeSimple(model, context);
		expect(message.stopReason).toBe("stop");
		expect(acme.requests[0]?.headers).toEqual({
			"X-Provider": "p",
			"x-shared": "model",
			"X-Ref": "resolved-value",
			"X-Override": "o",
		});
	});

	it("fails the request as an error event when a model header reference is unset", async () => {
		const { runtime } = runtimeWith({
			providers: { acme: { apiKey: "k", models: [{ id: "custom", headers: { "X-Ref": "$TAU_UNSET_HDR" } }] } },
		});
		const message = await runtime.models.completeSimple(runtime.getModel("acme", "custom")!, context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("TAU_UNSET_HDR");
	});

	it("sends the key as a Bearer header with authHeader, and errors without a key", async () => {
		const { runtime, acme } = runtimeWith({ providers: { acme: { apiKey: "secret", authHeader: true } } });
		await runtime.models.completeSimple(runtime.getModel("acme", "acme-model")!, context);
		expect(acme.requests[0]?.headers).toEqual({ Authorization: "Bearer secret" });
		const noKey = new ModelRuntime({
			modelsJsonPath: null,
			credentials: AuthStorage.inMemory(),
			builtinProviders: [recordingProvider("local", { keyless: true }).provider],
		});
		noKey.registerProvider("local", { authHeader: true });
		const failed = await noKey.models.completeSimple(noKey.getModel("local", "local-model")!, context);
		expect(failed.stopReason).toBe("error");
		expect(failed.errorMessage).toContain("authHeader requires a resolved API key");
	});
});

describe("models.json in the runtime", () => {
	it("loads a local OpenAI-compatible provider next to the built-ins", async () => {
		const { runtime } = runtimeWith({
			providers: {
				ollama: {
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					apiKey: "ollama",
					models: [{ id: "qwen2.5-coder:7b", contextWindow: 32768 }],
				},
			},
		});
		expect(runtime.getModel("ollama", "qwen2.5-coder:7b")).toMatchObject({
			baseUrl: "http://localhost:11434/v1",
			contextWindow: 32768,
		});
		await runtime.refreshAvailability();
		expect(runtime.getAvailableSnapshot().map((model) => model.provider)).toEqual(["ollama"]);
	});

	it("keeps the other providers when one provider entry is invalid", () => {
		const { runtime } = runtimeWith({
			providers: {
				acme: { models: [{ id: "inherits-api-and-url" }] },
				newbie: { baseUrl: "http://x/v1", api: "openai-completions", models: [{ id: "m" }] },
				other: { baseUrl: "https://proxy.example/v1" },
				good: { baseUrl: "http://good/v1", api: "openai-completions", apiKey: "k", models: [{ id: "g" }] },
				noapi: { baseUrl: "http://x/v1", apiKey: "k", models: [{ id: "m" }] },
				nourl: { api: "openai-completions", apiKey: "k", models: [{ id: "m" }] },
				blank: {},
			},
		});
		const errors = [
			'Provider "newbie": Provider newbie: no authentication method configured.',
			'Provider "noapi": Provider noapi, model m: no "api" specified. Set at provider or model level.',
			'Provider "nourl": Provider nourl: "baseUrl" is required when defining custom models.',
			'Provider "blank": Provider blank: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".',
		];
		expect(runtime.getProviderErrors()).toEqual(errors);
		expect(runtime.getError()).toBe(errors.join("\n"));
		expect(runtime.getModel("other", "other-model")?.baseUrl).toBe("https://proxy.example/v1");
		expect(runtime.getModel("good", "g")).toBeDefined();
		expect(runtime.getModel("newbie", "m")).toBeUndefined();
		expect(runtime.getModel("acme", "inherits-api-and-url")).toBeDefined();
	});

	it("falls back to the built-in definition when a built-in provider's entry fails", () => {
		const { runtime } = runtimeWith({ providers: { acme: { oauth: "radius" } } });
		expect(runtime.getProviderErrors()).toEqual([
			'Provider "acme": Provider acme: "baseUrl" is required when "oauth" is set.',
		]);
		expect(runtime.getError()).toBe('Provider "acme": Provider acme: "baseUrl" is required when "oauth" is set.');
		expect(runtime.getModel("acme", "acme-model")).toBeDefined();
	});

	it("ignores the whole file on a schema error and reports it", () => {
		const { runtime, agentDir } = runtimeWith({ providers: { acme: { models: [{}] } } });
		expect(runtime.getError()).toBe(
			`Invalid models.json schema:\n  - providers.acme.models.0.id: is required\n\nFile: ${join(agentDir, "models.json")}`,
		);
		expect(runtime.getModels().map((model) => model.id)).toEqual(["acme-model", "other-model"]);
	});

	it("picks up edits on reload", () => {
		const { runtime, agentDir } = runtimeWith(undefined);
		expect(runtime.getModel("acme", "added")).toBeUndefined();
		writeText(
			join(agentDir, "models.json"),
			'{ "providers": { "acme": { "models": [{ "id": "added" }] } } } // edited',
		);
		runtime.reload();
		expect(runtime.getModel("acme", "added")).toMatchObject({ provider: "acme", contextWindow: 128000 });
	});
});

describe("extension providers", () => {
	it("applies an overlay after models.json: models replace, baseUrl-only keeps models", () => {
		const { runtime } = runtimeWith({ providers: { acme: { models: [{ id: "from-json" }] } } });
		runtime.registerProvider("acme", { baseUrl: "https://ext.example/v1" });
		expect(
			runtime
				.getModels()
				.filter((m) => m.provider === "acme")
				.map((m) => [m.id, m.baseUrl]),
		).toEqual([
			["acme-model", "https://ext.example/v1"],
			["from-json", "https://ext.example/v1"],
		]);
		runtime.registerProvider("acme", { name: "Ext Acme", models: [{ id: "ext-only" }] });
		expect(
			runtime
				.getModels()
				.filter((m) => m.provider === "acme")
				.map((m) => m.id),
		).toEqual(["ext-only"]);
		expect(runtime.models.getProvider("acme")?.name).toBe("Ext Acme");
		runtime.unregisterProvider("acme");
		expect(
			runtime
				.getModels()
				.filter((m) => m.provider === "acme")
				.map((m) => m.id),
		).toEqual(["acme-model", "from-json"]);
	});

	it("registers a complete native provider", () => {
		const { runtime } = runtimeWith(undefined);
		runtime.registerProvider("native", recordingProvider("native", { envVars: [] }).provider);
		expect(runtime.getModel("native", "native-model")).toBeDefined();
	});
});

describe("login and logout", () => {
	it("saves an API key login, refreshes availability, and logout returns to env keys", async () => {
		process.env.ACME_API_KEY = "from-env";
		const { runtime } = runtimeWith(undefined, {});
		const model = runtime.getModel("acme", "acme-model")!;
		await runtime.login("acme", "api_key", {
			prompt: async () => "typed-$key",
			notify: () => undefined,
		});
		expect(runtime.hasConfiguredAuth("acme")).toBe(true);
		// Stored escaped, resolved back to the literal that was typed.
		expect(await runtime.credentials.store.list()).toEqual([{ providerId: "acme", type: "api_key" }]);
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("typed-$key");
		await runtime.logout("acme");
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("from-env");
		delete process.env.ACME_API_KEY;
		await runtime.logout("acme");
		expect(runtime.hasConfiguredAuth("acme")).toBe(false);
	});
});

describe("availability snapshot", () => {
	it("tracks configured providers and refreshes one provider on runtime key changes", async () => {
		process.env.OTHER_API_KEY = "k";
		const { runtime } = runtimeWith(undefined);
		await runtime.refreshAvailability();
		expect(runtime.getAvailableSnapshot().map((model) => model.provider)).toEqual(["other"]);
		await runtime.setRuntimeApiKey("acme", "key");
		expect(runtime.hasConfiguredAuth("acme")).toBe(true);
		await runtime.removeRuntimeApiKey("acme");
		expect(runtime.hasConfiguredAuth("acme")).toBe(false);
	});
});

describe("registry helpers", () => {
	it("reports display names, request auth and OAuth use", async () => {
		const { runtime } = runtimeWith(
			{ providers: { acme: { name: "Acme Cloud", apiKey: "k", headers: { "X-Team": "core" } } } },
			{ other: { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3_600_000 } },
		);
		expect(runtime.getProviderDisplayName("acme")).toBe("Acme Cloud");
		expect(runtime.getProviderDisplayName("other")).toBe("OTHER");
		expect(runtime.getProviderDisplayName("unknown")).toBe("unknown");
		const registry = new ModelRegistry(runtime);
		expect(await registry.getApiKeyAndHeaders(runtime.getModel("acme", "acme-model")!)).toEqual({
			ok: true,
			apiKey: "k",
			headers: { "X-Team": "core" },
		});
		expect(await registry.getApiKeyAndHeaders(runtime.getModel("other", "other-model")!)).toEqual({
			ok: false,
			error: 'No API key found for "other"',
		});
		await runtime.refreshAvailability();
		expect(registry.isUsingOAuth(runtime.getModel("other", "other-model")!)).toBe(false);
		expect(registry.isUsingOAuth(runtime.getModel("acme", "acme-model")!)).toBe(false);
	});
});
