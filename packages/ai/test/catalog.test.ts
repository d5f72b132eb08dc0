import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
	type AnyModel,
	type CatalogFile,
	createModels,
	getModelType,
	InMemoryCredentialStore,
	validateCatalog,
} from "@tau/ai";
import {
	builtinModels,
	builtinProviders,
	DEFAULT_MODEL_PER_PROVIDER,
	defaultModelIdFor,
	getAllBuiltinModels,
	getBuiltinModel,
	getBuiltinModelDataGeneratedAt,
	getBuiltinModels,
	getBuiltinProviders,
	getModel,
} from "@tau/ai/providers/all";
import { startMockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";

const catalogDir = join(import.meta.dirname, "../catalog/providers");
const catalogFile = (provider: string): CatalogFile =>
	JSON.parse(readFileSync(join(catalogDir, `${provider}.json`), "utf8")) as CatalogFile;
const shippedIds = readdirSync(catalogDir)
	.filter((file) => file.endsWith(".json"))
	.map((file) => file.slice(0, -".json".length))
	.sort();

// pi 1.6's published model data: ./test.sh installs the reference with scripts/pi-reference.mjs.
const piData = join(
	import.meta.dirname,
	"../../../node_modules/.cache/tau-pi-reference/node_modules/@earendil-works/pi-ai/dist/providers/data",
);
const piInstalled = existsSync(piData);

const valid = (): AnyModel => structuredClone(getBuiltinModel("openai", "gpt-5")!) as AnyModel;
const file = (key: string, model: unknown, api = "openai-responses"): CatalogFile => ({
	[api]: { [key]: model as AnyModel },
});

describe("catalog validation", () => {
	it("accepts every shipped catalog, and the generated index names exactly the shipped files", () => {
		expect(getBuiltinProviders().sort()).toEqual(shippedIds);
		for (const provider of shippedIds) expect(validateCatalog(provider, catalogFile(provider)), provider).toEqual([]);
		expect(getBuiltinModelDataGeneratedAt()).toBeGreaterThan(0);
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

describe.skipIf(!piInstalled)("catalog parity with pi 1.6 (reference from scripts/pi-reference.mjs)", () => {
	const piProviders = piInstalled
		? readdirSync(piData)
				.filter((name) => name.endsWith(".json") && !name.startsWith("."))
				.map((name) => name.slice(0, -".json".length))
				.sort()
		: [];
	const piFile = (provider: string) =>
		JSON.parse(readFileSync(join(piData, `${provider}.json`), "utf8")) as CatalogFile;

	it("ships every provider and model of pi's catalog (refresh: node packages/ai/scripts/build-catalog.mjs --from-pi)", () => {
		expect(shippedIds).toEqual(piProviders);
		let models = 0;
		for (const provider of piProviders) {
			const ours = getAllBuiltinModels(provider);
			const theirs = Object.values(piFile(provider)).flatMap((group) => Object.values(group));
			expect(
				ours.map((model) => `${getModelType(model)}:${model.id}`),
				provider,
			).toEqual(theirs.map((model) => `${getModelType(model)}:${model.id}`));
			models += ours.length;
		}
		expect(models).toBeGreaterThan(1800);
	});

	it("keeps each model's facts: name, API, limits, prices, inputs, thinking levels and compat flags", () => {
		const fields = [
			"name",
			"api",
			"baseUrl",
			"contextWindow",
			"maxTokens",
			"cost",
			"input",
			"reasoning",
			"thinkingLevelMap",
			"compat",
		];
		for (const provider of piProviders) {
			const ours = new Map(
				getAllBuiltinModels(provider).map((model) => [`${getModelType(model)}:${model.id}`, model]),
			);
			for (const theirs of Object.values(piFile(provider)).flatMap((group) => Object.values(group))) {
				const model = ours.get(`${getModelType(theirs)}:${theirs.id}`) as unknown as Record<string, unknown>;
				const expected = theirs as unknown as Record<string, unknown>;
				for (const field of fields)
					expect(model[field], `${provider}/${theirs.id}.${field}`).toEqual(expected[field]);
			}
		}
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
		expect(getBuiltinProviders()).toContain("mistral");
		expect(Object.isFrozen(getBuiltinModel("openai", "gpt-5"))).toBe(true);
	});

	it("registers every catalog provider and the local servers, each reading no catalog until asked", () => {
		const providers = builtinProviders();
		expect(providers.map((p) => p.id)).toEqual([...shippedIds, "ollama", "llamacpp", "lmstudio", "vllm"]);
		const expected: Record<string, string | undefined> = {
			anthropic: "https://api.anthropic.com",
			openai: "https://api.openai.com/v1",
			google: "https://generativelanguage.googleapis.com/v1beta",
			mistral: "https://api.mistral.ai",
			"openai-codex": "https://chatgpt.com/backend-api",
			"amazon-bedrock": undefined,
			ollama: "http://localhost:11434/v1",
			llamacpp: "http://127.0.0.1:8080/v1",
			lmstudio: "http://localhost:1234/v1",
			vllm: "http://localhost:8000/v1",
		};
		for (const provider of providers.filter((p) => p.id in expected))
			expect(provider.baseUrl, provider.id).toBe(expected[provider.id]);
	});

	it("serves each provider's models over the API each model names, the new wire APIs included", () => {
		const expected: Record<string, string[]> = {
			anthropic: ["anthropic-messages"],
			openai: ["openai-responses"],
			openrouter: ["anthropic-messages", "openai-completions"],
			google: ["google-generative-ai"],
			"google-vertex": ["google-vertex"],
			"amazon-bedrock": ["bedrock-converse-stream"],
			mistral: ["mistral-conversations"],
			azure: ["azure-openai-responses", "openai-completions"],
			"openai-codex": ["openai-codex-responses"],
		};
		for (const provider of builtinProviders().filter((p) => p.id in expected)) {
			const apis = [...new Set(provider.getModels().map((m) => m.api))].sort();
			expect(apis, provider.id).toEqual(expected[provider.id]);
			for (const m of provider.getModels()) expect(m.provider, m.id).toBe(provider.id);
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
			mistral: "MISTRAL_API_KEY",
			azure: "AZURE_OPENAI_API_KEY",
			"google-vertex": "GOOGLE_CLOUD_API_KEY",
			huggingface: "HF_TOKEN",
			"vercel-ai-gateway": "AI_GATEWAY_API_KEY",
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
		// A local server started without a key gets a placeholder it ignores: the adapter always sends a key.
		expect(await models.getAuth("lmstudio")).toEqual({
			auth: { apiKey: "lmstudio" },
			source: "no key (local server)",
		});

		env.ANTHROPIC_API_KEY = "sk-ant";
		expect(await models.getAuth("anthropic")).toEqual({ auth: { apiKey: "sk-ant" }, source: "ANTHROPIC_API_KEY" });
		env.ANTHROPIC_AUTH_TOKEN = "tok";
		expect(await models.getAuth("anthropic")).toMatchObject({ source: "ANTHROPIC_AUTH_TOKEN" });
	});

	it("resolves cloud credentials: the AWS chain's sources, Vertex ADC with project and location, Cloudflare's account", async () => {
		let env: Record<string, string> = {};
		let files: string[] = [];
		const models = builtinModels({
			authContext: { env: async (name) => env[name], fileExists: async (path) => files.includes(path) },
		});
		expect(await models.getAuth("amazon-bedrock")).toBeUndefined();
		env = { AWS_ACCESS_KEY_ID: "AKID" };
		expect(await models.getAuth("amazon-bedrock")).toBeUndefined();
		env = { AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "secret" };
		expect(await models.getAuth("amazon-bedrock")).toEqual({ auth: {}, source: "AWS access keys" });
		env = { AWS_PROFILE: "work" };
		expect(await models.getAuth("amazon-bedrock")).toEqual({ auth: {}, source: "AWS_PROFILE" });
		env = { AWS_BEARER_TOKEN_BEDROCK: "bedrock-key" };
		expect(await models.getAuth("amazon-bedrock")).toEqual({ auth: {}, source: "AWS_BEARER_TOKEN_BEDROCK" });

		env = { GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "europe-west4" };
		expect(await models.getAuth("google-vertex")).toBeUndefined();
		files = ["~/.config/gcloud/application_default_credentials.json"];
		expect(await models.getAuth("google-vertex")).toEqual({
			auth: {},
			source: "gcloud application default credentials",
		});
		env = { GOOGLE_CLOUD_API_KEY: "vk" };
		expect(await models.getAuth("google-vertex")).toEqual({ auth: { apiKey: "vk" }, source: "GOOGLE_CLOUD_API_KEY" });

		env = { CLOUDFLARE_API_KEY: "cf" };
		expect(await models.getAuth("cloudflare-workers-ai")).toBeUndefined();
		env = { CLOUDFLARE_API_KEY: "cf", CLOUDFLARE_ACCOUNT_ID: "acc" };
		expect(await models.getAuth("cloudflare-workers-ai")).toEqual({
			auth: { apiKey: "cf" },
			env: { CLOUDFLARE_ACCOUNT_ID: "acc" },
			source: "CLOUDFLARE_API_KEY",
		});
		expect(await models.getAuth("cloudflare-ai-gateway")).toBeUndefined();
	});

	it("lists a local server's models over openai-completions with conservative defaults on refresh()", async () => {
		const server = createServer((request, response) => {
			response.setHeader("content-type", "application/json");
			const data = [
				{ id: "qwen3:8b", context_length: 40960 },
				{ id: "llama3.2" },
				{ id: "served.gguf", meta: { n_ctx_train: 16384 } },
				{ object: "no id" },
			];
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
				["served.gguf", 16384],
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

	it("asks a local server started with a key for its list with that key, from the env or stored", async () => {
		const server = await startMockLlmServer({
			apiKey: "served-key",
			models: [{ id: "Qwen/Qwen3-8B", max_model_len: 40960 }],
			idleTimeoutMs: 0,
			maxLifetimeMs: 0,
		});
		try {
			const vllm = builtinProviders().find((p) => p.id === "vllm")!;
			const env: Record<string, string> = { VLLM_API_KEY: "served-key" };
			const models = createModels({
				authContext: { env: async (name) => env[name], fileExists: async () => false },
			});
			models.setProvider({ ...vllm, baseUrl: server.url("/v1") });
			expect((await models.refresh()).errors).toEqual(new Map());
			expect(models.getModels("vllm").map((m) => [m.id, m.contextWindow])).toEqual([["Qwen/Qwen3-8B", 40960]]);
			expect(server.requests[0]?.headers.authorization).toBe("Bearer served-key");
			// A stored key wins over the env's, as it does for chat requests.
			env.VLLM_API_KEY = "stale-key";
			const credentials = new InMemoryCredentialStore();
			await credentials.modify("vllm", async () => ({ type: "api_key", key: "served-key" }));
			const stored = createModels({
				credentials,
				authContext: { env: async (name) => env[name], fileExists: async () => false },
			});
			stored.setProvider({ ...vllm, baseUrl: server.url("/v1") });
			expect((await stored.refresh()).errors).toEqual(new Map());
			expect(server.requests[1]?.headers.authorization).toBe("Bearer served-key");
		} finally {
			await server.close();
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

describe("default model table (docs/models.md#which-model-a-session-starts-with)", () => {
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
		const builtinDefaults = DEFAULT_MODEL_PER_PROVIDER.filter(([provider]) => hosted.includes(provider));
		expect(builtinDefaults.map(([provider]) => provider).sort()).toEqual(hosted);
		const missing = builtinDefaults.filter(([provider, id]) => getBuiltinModel(provider, id)?.type !== "chat");
		expect(missing).toEqual([]);
	});
});
