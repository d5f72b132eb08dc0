import { join } from "node:path";
import { builtinProviders } from "@tau/ai/providers/all";
import { AuthStorage, ModelRuntime } from "@tau/coding-agent";
import { tempDirs, writeJson } from "./helpers.js";

/** A runtime over the built-in providers with its own temp `auth.json` (and `models.json` when given). */
export function runtimeWithAuthFile(options: { auth?: Record<string, unknown>; modelsJson?: unknown } = {}) {
	const { agentDir } = tempDirs();
	const authPath = join(agentDir, "auth.json");
	if (options.auth) writeJson(authPath, options.auth);
	const modelsJsonPath = join(agentDir, "models.json");
	if (options.modelsJson) writeJson(modelsJsonPath, options.modelsJson);
	const runtime = new ModelRuntime({
		modelsJsonPath: options.modelsJson ? modelsJsonPath : null,
		credentials: AuthStorage.create(authPath),
		builtinProviders: builtinProviders(),
		agentDir,
	});
	return { runtime, authPath };
}
