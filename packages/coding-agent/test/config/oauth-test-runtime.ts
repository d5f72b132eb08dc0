import { join } from "node:path";
import { builtinProviders } from "@tau/ai/providers/all";
import { AuthStorage, ModelRuntime } from "@tau/coding-agent";
import { FileModelsStore } from "../../src/config/index.js";
import { tempDirs, writeJson } from "./helpers.js";

/**
 * A runtime over the built-in providers with its own temp `auth.json` (and `models.json` when given);
 * with `modelsStore`, fetched catalogs are kept in the agent dir's `models-store.json`, and passing the
 * `agentDir` of an earlier runtime starts another over the same files.
 */
export function runtimeWithAuthFile(
	options: { auth?: Record<string, unknown>; modelsJson?: unknown; modelsStore?: boolean; agentDir?: string } = {},
) {
	const agentDir = options.agentDir ?? tempDirs().agentDir;
	const authPath = join(agentDir, "auth.json");
	if (options.auth) writeJson(authPath, options.auth);
	const modelsJsonPath = join(agentDir, "models.json");
	if (options.modelsJson) writeJson(modelsJsonPath, options.modelsJson);
	const runtime = new ModelRuntime({
		modelsJsonPath: options.modelsJson ? modelsJsonPath : null,
		credentials: AuthStorage.create(authPath),
		builtinProviders: builtinProviders(),
		agentDir,
		...(options.modelsStore ? { modelsStore: new FileModelsStore(join(agentDir, "models-store.json")) } : {}),
	});
	return { runtime, authPath, agentDir };
}
