import { join } from "node:path";
import { builtinProviders } from "@tau/ai/providers/all";
import { AuthStorage, FileModelsStore, ModelRuntime } from "../config/index.js";

/** The default model runtime of an agent dir: `auth.json`, `models.json` and the catalog cache there. */
export function createDefaultModelRuntime(agentDir: string): ModelRuntime {
	return new ModelRuntime({
		credentials: AuthStorage.create(join(agentDir, "auth.json")),
		builtinProviders: builtinProviders(),
		agentDir,
		modelsStore: new FileModelsStore(join(agentDir, "models-store.json")),
	});
}
