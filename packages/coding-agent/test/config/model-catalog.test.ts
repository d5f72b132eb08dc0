import { join } from "node:path";
import { createProvider, envApiKeyAuth, fauxProvider, type Model } from "@tau/ai";
import { AuthStorage, ModelRuntime } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { FileModelsStore } from "../../src/config/index.js";
import { readJson, tempDirs } from "./helpers.js";

const saved = { ...process.env };
afterEach(() => {
	process.env = { ...saved };
});

function dynamicProvider(fetched: Model[], calls: { count: number }) {
	const faux = fauxProvider({ provider: "dyn", models: [{ id: "static" }] });
	return createProvider({
		id: "dyn",
		auth: { apiKey: envApiKeyAuth("dyn", ["DYN_API_KEY"]) },
		models: faux.models.map((model) => ({ ...model, provider: "dyn" })),
		api: faux.provider as never,
		fetchModels: async () => {
			calls.count++;
			return fetched;
		},
	});
}

describe("remote catalogs", () => {
	it("refreshes online, caches in models-store.json, and uses only the cache when TAU_OFFLINE is set", async () => {
		process.env.DYN_API_KEY = "k";
		const { agentDir } = tempDirs();
		const storePath = join(agentDir, "models-store.json");
		const calls = { count: 0 };
		const template = fauxProvider({ provider: "dyn", models: [{ id: "remote" }] }).models[0];
		const remote = { ...template, provider: "dyn" } as Model;
		const online = new ModelRuntime({
			modelsJsonPath: null,
			credentials: AuthStorage.inMemory(),
			builtinProviders: [dynamicProvider([remote], calls)],
			modelsStore: new FileModelsStore(storePath),
		});
		const result = await online.refresh();
		expect(result.errors.size).toBe(0);
		expect(calls.count).toBe(1);
		expect(online.getModel("dyn", "remote")).toBeDefined();
		expect(readJson(storePath).dyn.models.map((model: Model) => model.id)).toEqual(["remote"]);

		process.env.TAU_OFFLINE = "1";
		const offline = new ModelRuntime({
			modelsJsonPath: null,
			credentials: AuthStorage.inMemory(),
			builtinProviders: [dynamicProvider([], calls)],
			modelsStore: new FileModelsStore(storePath),
		});
		await offline.refresh();
		expect(calls.count).toBe(1);
		expect(offline.getModel("dyn", "remote")).toBeDefined();
	});
});
