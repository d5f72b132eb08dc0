import { describe, expect, it, vi } from "vitest";

// Every SDK and catalog data module records its own loading, so the test can tell which entry
// point pulled in what. Each vitest file has its own module registry, so nothing is loaded yet.
const loaded = vi.hoisted(() => new Set<string>());
const recordLoad = vi.hoisted(() => (name: string) => async <T>(importOriginal: () => Promise<T>): Promise<T> => {
	loaded.add(name);
	return importOriginal();
});
vi.mock("@anthropic-ai/sdk", recordLoad("sdk:anthropic"));
// The Anthropic adapter imports only the SDK's base client (see its client.ts), not the package root.
vi.mock("@anthropic-ai/sdk/client", recordLoad("sdk:anthropic"));
vi.mock("openai", recordLoad("sdk:openai"));
vi.mock("@google/genai", recordLoad("sdk:google"));
vi.mock("@aws-sdk/client-bedrock-runtime", recordLoad("sdk:bedrock"));
vi.mock("@mistralai/mistralai", recordLoad("sdk:mistral"));
// Catalog files are read on first use: each read of `catalog/providers/<id>.json` is recorded.
vi.mock("node:fs", async (importOriginal) => {
	const fs = await importOriginal<typeof import("node:fs")>();
	const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
		const match = /catalog\/providers\/([^/]+)\.json$/.exec(String(path instanceof URL ? path.pathname : path));
		if (match) loaded.add(`catalog:${match[1]}`);
		return (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
	}) as typeof fs.readFileSync;
	return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

// Literal specifiers, so each public name is resolved exactly as a user's import would be.
const LAZY_ENTRIES: [factory: string, load: () => Promise<Record<string, unknown>>][] = [
	["anthropicMessagesApi", () => import("@tau/ai/api/anthropic-messages.lazy")],
	["openAICompletionsApi", () => import("@tau/ai/api/openai-completions.lazy")],
	["openAIResponsesApi", () => import("@tau/ai/api/openai-responses.lazy")],
	["azureOpenAIResponsesApi", () => import("@tau/ai/api/azure-openai-responses.lazy")],
	["openAICodexResponsesApi", () => import("@tau/ai/api/openai-codex-responses.lazy")],
	["googleGenerativeAIApi", () => import("@tau/ai/api/google-generative-ai.lazy")],
	["googleVertexApi", () => import("@tau/ai/api/google-vertex.lazy")],
	["mistralConversationsApi", () => import("@tau/ai/api/mistral-conversations.lazy")],
];
const ADAPTER_ENTRIES: (() => Promise<Record<string, unknown>>)[] = [
	() => import("@tau/ai/api/anthropic-messages"),
	() => import("@tau/ai/api/openai-completions"),
	() => import("@tau/ai/api/openai-responses"),
	() => import("@tau/ai/api/azure-openai-responses"),
	() => import("@tau/ai/api/openai-codex-responses"),
	() => import("@tau/ai/api/google-generative-ai"),
	() => import("@tau/ai/api/google-vertex"),
	() => import("@tau/ai/api/bedrock-converse-stream"),
	() => import("@tau/ai/api/mistral-conversations"),
];

// The tests run in order: each asserts what its entry adds to what the previous ones loaded.
describe("entry points (docs/ai.md)", () => {
	it("the root entry loads no SDK and no catalog, and exports no catalog reads", async () => {
		const root: Record<string, unknown> = await import("@tau/ai");
		expect(typeof root.createModels).toBe("function");
		expect(typeof root.createProvider).toBe("function");
		expect(root.getModel).toBeUndefined();
		expect(root.builtinProviders).toBeUndefined();
		expect(root.ANTHROPIC_CATALOG).toBeUndefined();
		expect([...loaded]).toEqual([]);
	});

	it("@tau/ai/models is the runtime skeleton: no catalog, no validator, no SDK", async () => {
		const models = await import("@tau/ai/models");
		expect(Object.keys(models).sort()).toEqual([
			"InMemoryModelsStore",
			"ModelsError",
			"createModels",
			"createProvider",
			"getModelType",
			"hasApi",
			"isModelType",
			"modelsAreEqual",
		]);
		const root = await import("@tau/ai");
		expect(models.createModels).toBe(root.createModels);
		expect([...loaded]).toEqual([]);
	});

	it("@tau/ai/api/<api-id>.lazy returns lazy ProviderStreams without loading the SDK", async () => {
		for (const [factory, load] of LAZY_ENTRIES) {
			const entry = await load();
			expect(Object.keys(entry)).toEqual([factory]);
			const streams = (entry[factory] as () => Record<string, unknown>)();
			expect(typeof streams.stream).toBe("function");
			expect(typeof streams.streamSimple).toBe("function");
		}
		expect([...loaded]).toEqual([]);
	});

	it("@tau/ai/providers/<id> reads no catalog until its models are asked for, then only its own", async () => {
		const anthropic = await import("@tau/ai/providers/anthropic");
		const provider = anthropic.anthropicProvider();
		expect(provider.id).toBe("anthropic");
		expect([...loaded]).toEqual([]);
		expect(provider.getModels().length).toBeGreaterThan(0);
		expect([...loaded]).toEqual(["catalog:anthropic"]);
	});

	it("@tau/ai/providers/all constructs every provider without reading a catalog or loading an SDK", async () => {
		const all = await import("@tau/ai/providers/all");
		const models = all.builtinModels();
		expect(models.getProviders().length).toBeGreaterThan(40);
		expect([...loaded]).toEqual(["catalog:anthropic"]);
		expect(models.getModel("mistral", "devstral-medium-latest")).toBeDefined();
		expect(all.getModel("google", all.getBuiltinModels("google")[0]!.id)).toBeDefined();
		expect([...loaded].sort()).toEqual(["catalog:anthropic", "catalog:google", "catalog:mistral"]);
	});

	it("@tau/ai/compat is the root plus every catalog read, sharing their bindings, and loads no SDK", async () => {
		const compat = await import("@tau/ai/compat");
		const root = await import("@tau/ai");
		const all = await import("@tau/ai/providers/all");
		const openai = await import("@tau/ai/providers/openai");
		expect(compat.getModel).toBe(all.getModel);
		expect(compat.getProviders).toBe(all.getBuiltinProviders);
		expect(compat.openaiProvider).toBe(openai.openaiProvider);
		expect(compat.createModels).toBe(root.createModels);
		expect(compat.getApiProviders().length).toBeGreaterThan(0);
		expect([...loaded].filter((name) => name.startsWith("sdk:"))).toEqual([]);
	});

	it("@tau/ai/api/<api-id> is the real adapter: exactly stream and streamSimple, SDK loaded at once", async () => {
		for (const load of ADAPTER_ENTRIES) {
			const adapter = await load();
			expect(Object.keys(adapter).sort()).toEqual(["stream", "streamSimple"]);
		}
		for (const sdk of ["anthropic", "openai", "google", "bedrock", "mistral"])
			expect(loaded.has(`sdk:${sdk}`), sdk).toBe(true);
	});

	it("@tau/ai/legacy is the root plus every catalog read, sharing their bindings", async () => {
		const legacy = await import("@tau/ai/legacy");
		const root = await import("@tau/ai");
		const all = await import("@tau/ai/providers/all");
		const openai = await import("@tau/ai/providers/openai");
		const mistral = await import("@tau/ai/providers/mistral");
		expect(legacy.getModel).toBe(all.getModel);
		expect(legacy.openaiProvider).toBe(openai.openaiProvider);
		expect(legacy.mistralProvider).toBe(mistral.mistralProvider);
		expect(typeof legacy.streamGoogle).toBe("function");
		expect(legacy.createModels).toBe(root.createModels);
	});
});
