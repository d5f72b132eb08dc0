import { join } from "node:path";
import { ModelRuntime } from "../config/index.js";

/**
 * The model runtime of an agent dir (`auth.json`, `models.json`, the catalog cache there) without the
 * create-time refresh: sessions check credentials when they choose their model.
 */
export function createDefaultModelRuntime(agentDir: string): Promise<ModelRuntime> {
	return ModelRuntime.create({
		authPath: join(agentDir, "auth.json"),
		modelsPath: join(agentDir, "models.json"),
		refreshOnCreate: false,
	});
}
