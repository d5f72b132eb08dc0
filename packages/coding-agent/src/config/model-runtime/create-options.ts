import { dirname, join } from "node:path";
import type { AuthContext, CredentialStore, ModelsStore, Provider } from "@tau/ai";
import { AuthStorage } from "../auth/auth-storage.js";
import { getAgentDir } from "../paths.js";
import { FileModelsStore } from "./models-store.js";

/**
 * The construction options behind `ModelRuntime.create`: files of the agent directory unless paths
 * are given, and the built-in providers (loaded on demand: they are the largest part of the catalog).
 */
export async function modelRuntimeOptions(options: CreateModelRuntimeOptions): Promise<ModelRuntimeOptions> {
	const agentDir = getAgentDir();
	const modelsPath = options.modelsPath === undefined ? join(agentDir, "models.json") : options.modelsPath;
	const storePath =
		options.modelsStorePath ?? join(modelsPath === null ? agentDir : dirname(modelsPath), "models-store.json");
	const { builtinProviders } = await import("@tau/ai/providers/all");
	return {
		credentials: options.credentials ?? AuthStorage.create(options.authPath ?? join(agentDir, "auth.json")),
		builtinProviders: builtinProviders(),
		modelsJsonPath: modelsPath,
		agentDir,
		modelsStore: options.modelsStore ?? new FileModelsStore(storePath),
	};
}

/** `ModelRuntime.create` options (the defaults are the agent directory's files). */
export interface CreateModelRuntimeOptions {
	/** Credential storage; default the `auth.json` at `authPath`. */
	credentials?: CredentialStore;
	/** Default `<agentDir>/auth.json`. */
	authPath?: string;
	/** Default `<agentDir>/models.json`; `null` disables models.json. */
	modelsPath?: string | null;
	modelsStore?: ModelsStore;
	/** Default `models-store.json` next to models.json. */
	modelsStorePath?: string;
	/** Let `create` refresh catalogs over the network (default false). */
	allowModelNetwork?: boolean;
	/** Timeout of the create-time refresh. */
	modelRefreshTimeoutMs?: number;
	/** Cancels the create-time refresh. */
	signal?: AbortSignal;
	/** `false` skips the create-time catalog and credential refresh; static models stay available. */
	refreshOnCreate?: boolean;
}

/** What the `ModelRuntime` constructor takes (`modelRuntimeOptions` fills it from the agent directory). */
export interface ModelRuntimeOptions {
	/** The credential store (usually `AuthStorage`); wrapped with runtime API keys. */
	credentials: CredentialStore;
	/** Built-in providers (the catalog). */
	builtinProviders: readonly Provider[];
	/** models.json path; `null` disables it. Default `<agentDir>/models.json`. */
	modelsJsonPath?: string | null;
	agentDir?: string;
	authContext?: AuthContext;
	/** Cache of remote catalogs (`FileModelsStore` on `<agentDir>/models-store.json` in the CLI). */
	modelsStore?: ModelsStore;
}
