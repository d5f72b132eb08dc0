import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import { type CatalogFile, catalogModels } from "../../models/catalog.js";
import type { ApiKeyAuth } from "../../types/auth.js";
import type { Provider, ProviderStreams } from "../../types/provider.js";
import { createProvider } from "../create-provider.js";

export interface CatalogProviderDefinition {
	id: string;
	name: string;
	baseUrl: string;
	catalog: CatalogFile;
	api: ProviderStreams | Record<string, ProviderStreams>;
	/** Env vars read in order after a stored credential. */
	envVars?: readonly string[];
	auth?: ApiKeyAuth;
}

/** A hosted provider over its static catalog, with API-key auth from a stored key or the environment. */
export function catalogProvider(definition: CatalogProviderDefinition): Provider {
	return createProvider({
		id: definition.id,
		name: definition.name,
		baseUrl: definition.baseUrl,
		auth: { apiKey: definition.auth ?? envApiKeyAuth(definition.name, definition.envVars ?? []) },
		models: catalogModels(definition.catalog),
		api: definition.api,
	});
}
