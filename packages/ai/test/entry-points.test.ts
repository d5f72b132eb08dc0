import { describe, expect, it, vi } from "vitest";

// Every SDK and catalog data module records its own loading, so the test can tell which entry
// point pulled in what. Each vitest file has its own module registry, so nothing is loaded yet.
const loaded = vi.hoisted(() => new Set<string>());
const recordLoad = vi.hoisted(() => (name: string) => async <T>(importOriginal: () => Promise<T>): Promise<T> => {
	loaded.add(name);
	return importOriginal();
});
vi.mock("@anthropic-ai/sdk", recordLoad("sdk:anthropic"));
vi.mock("openai", recordLoad("sdk:openai"));
vi.mock("../src/providers/data/anthropic.js", recordLoad("catalog:anthropic"));
vi.mock("../src/providers/data/deepseek.js", recordLoad("catalog:deepseek"));
vi.mock("../src/providers/data/google.js", recordLoad("catalog:google"));
vi.mock("../src/providers/data/groq.js", recordLoad("catalog:groq"));
vi.mock("../src/providers/data/openai.js", recordLoad("catalog:openai"));
vi.mock("../src/providers/data/openrouter.js", recordLoad("catalog:openrouter"));
vi.mock("../src/providers/data/xai.js", recordLoad("catalog:xai"));

// Literal specifiers, so each public name is resolved exactly as a user's import would be.
const LAZY_ENTRIES: [factory: string, load: () => Promise<Record<string, unknown>>][] = [
	["anthropicMessagesApi", () => import("@tau/ai/api/anthropic-messages.lazy")],
	["openAICompletionsApi", () => import("@tau/ai/api/openai-completions.lazy")],
	["openAIResponsesApi", () => import("@tau/ai/api/openai-responses.lazy")],
];
const ADAPTER_ENTRIES: (() => Promise<Record<string, unknown>>)[] = [
	() => import("@tau/ai/api/anthropic-messages"),
	() => import("@tau/ai/api/openai-completions"),
	() => import("@tau/ai/api/openai-responses"),
];

// The tests run in order: each asserts what its entry adds to what the previous ones loaded.
describe("entry points (ai.md 0.3)", () => {
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

	it("@tau/ai/providers/<id> loads its own catalog and no SDK", async () => {
		const anthropic = await import("@tau/ai/providers/anthropic");
		expect(anthropic.anthropicProvider().id).toBe("anthropic");
		expect([...loaded]).toEqual(["catalog:anthropic"]);
	});

	it("@tau/ai/providers/all loads every catalog and no SDK", async () => {
		const all = await import("@tau/ai/providers/all");
		expect(all.getModel("anthropic", all.getBuiltinModels("anthropic")[0]!.id)).toBeDefined();
		expect([...loaded].filter((name) => name.startsWith("sdk:"))).toEqual([]);
		expect([...loaded].filter((name) => name.startsWith("catalog:")).sort()).toEqual(
			["anthropic", "deepseek", "google", "groq", "openai", "openrouter", "xai"].map((id) => `catalog:${id}`),
		);
	});

	it("@tau/ai/compat is the root plus every catalog read, sharing their bindings, and loads no SDK", async () => {
		const compat = await import("@tau/ai/compat");
		const root = await import("@tau/ai");
		const all = await import("@tau/ai/providers/all");
		const openai = await import("@tau/ai/providers/openai");
		expect(compat.getModel).toBe(all.getModel);
		expect(compat.getProviders).toBe(all.getBuiltinProviders);
		expect(compat.openaiProvider).toBe(openai.openaiProvider);
		expect(compat.OPENAI_CATALOG).toBe(openai.OPENAI_CATALOG);
		expect(compat.createModels).toBe(root.createModels);
		expect(compat.getApiProviders().length).toBeGreaterThan(0);
		expect([...loaded].filter((name) => name.startsWith("sdk:"))).toEqual([]);
	});

	it("@tau/ai/api/<api-id> is the real adapter: exactly stream and streamSimple, SDK loaded at once", async () => {
		for (const load of ADAPTER_ENTRIES) {
			const adapter = await load();
			expect(Object.keys(adapter).sort()).toEqual(["stream", "streamSimple"]);
		}
		expect(loaded.has("sdk:anthropic")).toBe(true);
		expect(loaded.has("sdk:openai")).toBe(true);
	});
});
