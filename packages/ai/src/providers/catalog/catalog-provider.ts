import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import type { ProviderAuth } from "../../types/auth.js";
import type { Provider, ProviderStreams } from "../../types/provider.js";
import { apiByModel } from "../api-registry.js";
import { createProvider } from "../create-provider.js";
import { shippedModels } from "./shipped-catalog.js";

export interface CatalogProviderDefinition {
	id: string;
	name: string;
	/** Metadata for hosts; each model carries its own base URL. */
	baseUrl?: string;
	/** Implementations by API; default: the built-in adapter of each model's `api`, loaded on first use. */
	api?: ProviderStreams | Partial<Record<string, ProviderStreams>>;
	/** Env vars read in order after a stored credential (with `keyName`, the name of the key). */
	envVars?: readonly string[];
	keyName?: string;
	/** Replaces the env-var API key auth. */
	auth?: ProviderAuth;
	/** The chat models a credential can use (see `Provider.filterModels`). */
	filterModels?: Provider["filterModels"];
}

/** A hosted provider over its shipped catalog (read on first use), with API-key auth by default. */
export function catalogProvider(definition: CatalogProviderDefinition): Provider {
	return createProvider({
		id: definition.id,
		name: definition.name,
		...(definition.baseUrl !== undefined ? { baseUrl: definition.baseUrl } : {}),
		auth: definition.auth ?? {
			apiKey: envApiKeyAuth(definition.keyName ?? `${definition.name} API key`, definition.envVars ?? []),
		},
		models: () => shippedModels(definition.id),
		api: definition.api ?? apiByModel(),
		...(definition.filterModels ? { filterModels: definition.filterModels } : {}),
	});
}
