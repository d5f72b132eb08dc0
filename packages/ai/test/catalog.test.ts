import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type AnyModel, type CatalogFile, createModels, validateCatalog } from "@tau/ai";
import {
	builtinModels,
	builtinProviders,
	DEFAULT_MODEL_PER_PROVIDER,
	defaultModelIdFor,
	getBuiltinModel,
	getBuiltinModels,
	getBuiltinProviders,
	getModel,
} from "@tau/ai/providers/all";
import { describe, expect, it } from "vitest";
import { ANTHROPIC_CATALOG } from "../src/providers/data/anthropic.js";
import { DEEPSEEK_CATALOG } from "../src/providers/data/deepseek.js";
import { GOOGLE_CATALOG } from "../src/providers/data/google.js";
import { GROQ_CATALOG } from "../src/providers/data/groq.js";
import { OPENAI_CATALOG } from "../src/providers/data/openai.js";
import { OPENROUTER_CATALOG } from "../src/providers/data/openrouter.js";
import { XAI_CATALOG } from "../src/providers/data/xai.js";

const catalogDir = join(import.meta.dirname, "../catalog");

const shipped: Record<string, CatalogFile> = {
	anthropic: ANTHROPIC_CATALOG,
	openai: OPENAI_CATALOG,
	openrouter: OPENROUTER_CATALOG,
	groq: GROQ_CATALOG,
	xai: XAI_CATALOG,
	deepseek: DEEPSEEK_CATALOG,
	google: GOOGLE_CATALOG,
};

const valid = (): AnyModel => structuredClone(getBuiltinModel("openai", "gpt-5")!) as AnyModel;
const file = (key: string, model: unknown, api = "openai-responses"): CatalogFile => ({
	[api]: { [key]: model as AnyModel },
});

describe("catalog validation", () => {
	it("accepts every shipped catalog, and the data modules match their JSON sources", () => {
		const sources = readdirSync(catalogDir).filter((file) => file.endsWith(".json") && file !== "meta.json");
		expect(sources.map((file) => file.replace(".json", "")).sort()).toEqual(Object.keys(shipped).sort());
		for (const [provider, catalog] of Object.entries(shipped)) {
			const source = JSON.parse(readFileSync(join(catalogDir, `${provider}.json`), "utf8"));
			expect(validateCatalog(provider, source)).toEqual([]);
			expect(catalog).toEqual(source);
		}
		expect(JSON.parse(readFileSync(join(catalogDir, "meta.json"), "utf8"))).toHaveProperty("generatedAt");
	});

	it("rejects each kind of broken entry", () => {
		const { name: _name, ...missingName } = valid() as unknown as Record<string, unknown>;
		expect(validateCatalog("openai", file("chat:gpt-5", missingName))).toEqual([
			expect.stringContaining('missing required field "name"'),
		]);
		expect(validateCatalog("openai", file("chat:gpt-5", valid(), "openai-completions"))).toEqual([
			expect.stringContaining("does not match its group"),
		]);
		expect(validateCatalog("groq", file("chat:gpt-5", valid()))).toEqual([
			expect.stringContaining("does not match the file"),
		]);
		expect(validateCatalog("openai", file("image:gpt-5", valid()))).toEqual([expect.stringContaining("key prefix")]);
		expect(
			validateCatalog("openai", {
				"openai-responses": { "chat:gpt-5": valid() },
				"openai-completions": { "chat:gpt-5": { ...valid(), api: "openai-completions" } },
			}),
		).toEqual([expect.stringContaining("duplicate")]);
		expect(
			validateCatalog("openai", file("chat:gpt-5", { ...valid(), compat: { thinkingFormat: "openai" } })),
		).toEqual([expect.stringContaining('invalid compat key "thinkingFormat"')]);
		expect(
			validateCatalog(
				"openai",
				file("chat:gpt-5", { ...valid(), cost: { input: -1, output: 0, cacheRead: 0, cacheWrite: 0 } }),
			),
		).toEqual([expect.stringContaining("cost.input")]);
	});
});

describe("built-in providers", () => {
	it("reads the static catalog synchronously without network", () => {
		expect(getBuiltinModel("openai", "gpt-5")).toMatchObject({
			api: "openai-responses",
			provider: "openai",
			baseUrl: "https://api.openai.com/v1",
		});
		expect(getModel("anthropic", "claude-sonnet-4-5")?.api).toBe("anthropic-messages");
		expect(getBuiltinModels("groq").length).toBeGreaterThan(0);
		expect(getBuiltinProviders()).toContain("deepseek");
		expect(Object.isFrozen(getBuiltinModel("openai", "gpt-5"))).toBe(true);
	});

	it("registers the minimum provider set with the documented api and base URL", () => {
		const expected: Record<string, string> = {
			anthropic: "https://api.anthropic.com",
			openai: "https://api.openai.com/v1",
			openrouter: "https://openrouter.ai/api/v1",
			groq: "https://api.groq.com/openai/v1",
			xai: "https://api.x.ai/v1",
			deepseek: "https://api.deepseek.com",
			google: "https://generativelanguage.googleapis.com/v1beta/openai",
			ollama: "http://localhost:11434/v1",
			llamacpp: "http://127.0.0.1:8080/v1",
			lmstudio: "http://localhost:1234/v1",
			vllm: "http://localhost:8000/v1",
		};
		const providers = builtinProviders();
		expect(providers.map((p) => p.id).sort()).toEqual(Object.keys(expected).sort());
		for (const provider of providers) expect(provider.baseUrl).toBe(expected[provider.id]);
		const openrouter = providers.find((p) => p.id === "openrouter")!;
		expect(new Set(openrouter.getModels().map((m) => m.api))).toEqual(
			new Set(["openai-completions", "anthropic-messages"]),
		);
	});

	it("serves each hosted provider's models over its documented API", () => {
		const expected: Record<string, string[]> = {
			anthropic: ["anthropic-messages"],
			openai: ["openai-responses"],
			openrouter: ["anthropic-messages", "openai-completions"],
			groq: ["openai-completions"],
			xai: ["openai-responses"],
			deepseek: ["openai-completions"],
			google: ["openai-completions"],
		};
		for (const provider of builtinProviders().filter((p) => p.id in expected)) {
			const apis = [...new Set(provider.getModels().map((m) => m.api))].sort();
			expect(apis, provider.id).toEqual(expected[provider.id]);
			for (const m of provider.getModels()) expect(m.provider, m.id).toBe(provider.id);
		}
		const openrouter = builtinProviders().find((p) => p.id === "openrouter")!;
		for (const m of openrouter.getModels().filter((m) => m.api === "anthropic-messages")) {
			expect(m.id.startsWith("anthropic/"), m.id).toBe(true);
			expect(m.baseUrl).toBe("https://openrouter.ai/api");
		}
	});

	it("reads each provider's documented environment variable, Anthropic's bearer token before its key", async () => {
		const envVars: Record<string, string> = {
			openai: "OPENAI_API_KEY",
			openrouter: "OPENROUTER_API_KEY",
			groq: "GROQ_API_KEY",
			xai: "XAI_API_KEY",
			deepseek: "DEEPSEEK_API_KEY",
			google: "GEMINI_API_KEY",
			ollama: "OLLAMA_API_KEY",
			llamacpp: "LLAMA_API_KEY",
			vllm: "VLLM_API_KEY",
		};
		const env: Record<string, string> = Object.fromEntries(
			Object.values(envVars).map((name) => [name, `key-of-${name}`]),
		);
		const models = builtinModels({ authContext: { env: async (name) => env[name], fileExists: async () => false } });
		for (const [provider, name] of Object.entries(envVars))
			expect(await models.getAuth(provider), provider).toEqual({ auth: { apiKey: `key-of-${name}` }, source: name });
		expect(await models.getAuth("lmstudio")).toEqual({ auth: {} });

		env.ANTHROPIC_API_KEY = "sk-ant";
		expect(await models.getAuth("anthropic")).toEqual({ auth: { apiKey: "sk-ant" }, source: "ANTHROPIC_API_KEY" });
		env.ANTHROPIC_AUTH_TOKEN = "tok";
		expect(await models.getAuth("anthropic")).toMatchObject({ source: "ANTHROPIC_AUTH_TOKEN" });
	});

	it("lists a local server's models over openai-completions with conservative defaults on refresh()", async () => {
		const server = createServer((request, response) => {
			response.setHeader("content-type", "application/json");
			const data = [{ id: "qwen3:8b", context_length: 40960 }, { id: "llama3.2" }, { object: "no id" }];
			response.end(JSON.stringify(request.url === "/v1/models" ? { data } : {}));
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
			const ollama = builtinProviders().find((p) => p.id === "ollama")!;
			expect(ollama.getModels()).toEqual([]);
			const models = createModels();
			models.setProvider({ ...ollama, baseUrl });
			expect((await models.refresh()).errors).toEqual(new Map());
			const listed = models.getModels("ollama");
			expect(listed.map((m) => [m.id, m.contextWindow])).toEqual([
				["qwen3:8b", 40960],
				["llama3.2", 32768],
			]);
			for (const m of listed)
				expect(m).toMatchObject({
					api: "openai-completions",
					provider: "ollama",
					baseUrl,
					reasoning: false,
					input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					compat: { supportsDeveloperRole: false, supportsStore: false, maxTokensField: "max_tokens" },
				});
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("resolves env auth per provider and treats local providers as configured without keys", async () => {
		const env: Record<string, string> = { OPENAI_API_KEY: "sk-o", ANTHROPIC_AUTH_TOKEN: "tok", GEMINI_API_KEY: "g" };
		const models = builtinModels({ authContext: { env: async (name) => env[name], fileExists: async () => false } });
		expect(await models.getAuth("openai")).toEqual({ auth: { apiKey: "sk-o" }, source: "OPENAI_API_KEY" });
		expect(await models.getAuth("anthropic")).toEqual({
			auth: { headers: { Authorization: "Bearer tok" } },
			source: "ANTHROPIC_AUTH_TOKEN",
		});
		expect(await models.getAuth("google")).toMatchObject({ source: "GEMINI_API_KEY" });
		expect(await models.getAuth("groq")).toBeUndefined();
		for (const id of ["ollama", "llamacpp", "lmstudio", "vllm"]) expect(await models.checkAuth(id)).toBeDefined();
	});
});

describe("default model table (config.md 9.6)", () => {
	it("lists the providers in the specified order with their default model ids", () => {
		expect(DEFAULT_MODEL_PER_PROVIDER.slice(0, 4)).toEqual([
			["amazon-bedrock", "us.anthropic.claude-opus-5-5"],
			["ant-ling", "Ring-2.6-1T"],
			["anthropic", "claude-opus-5-5"],
			["openai", "gpt-6.2-sol"],
		]);
		expect(DEFAULT_MODEL_PER_PROVIDER.at(-1)).toEqual(["xiaomi-token-plan-sgp", "mimo-v2.6-pro"]);
		const providers = DEFAULT_MODEL_PER_PROVIDER.map(([provider]) => provider);
		expect(new Set(providers).size).toBe(providers.length);
		expect(defaultModelIdFor("groq")).toBe("openai/gpt-oss-120b");
		expect(defaultModelIdFor("no-such-provider")).toBeUndefined();
	});

	it("names, for every built-in hosted provider, a chat model the shipped catalog contains", () => {
		const hosted = getBuiltinProviders().filter((provider) => getBuiltinModels(provider).length > 0);
		expect(hosted.sort()).toEqual(Object.keys(shipped).sort());
		const builtinDefaults = DEFAULT_MODEL_PER_PROVIDER.filter(([provider]) => hosted.includes(provider));
		expect(builtinDefaults.map(([provider]) => provider).sort()).toEqual(hosted);
		const missing = builtinDefaults.filter(([provider, id]) => getBuiltinModel(provider, id)?.type !== "chat");
		expect(missing).toEqual([]);
	});
});
