import { type AnyModel, createProvider, type Provider, type RefreshModelsContext } from "@tau/ai";
import { radiusProvider } from "@tau/ai/providers/all";
import { type BaseProvider, type ComposedProvider, composeProvider } from "../models-json/compose.js";
import type { ProviderConfig } from "../models-json/schema.js";
import { extensionOAuth, isExtensionOAuthConfig } from "./extension-oauth.js";
import { composedAuth } from "./provider-auth.js";
import { composedStreams } from "./provider-streams.js";

/**
 * A models.json provider with `"oauth": "radius"` is a Radius gateway at its `baseUrl` (without `/v1`): it
 * signs in there and lists that gateway's own catalog, never the public one (docs/providers.md "Radius").
 */
export function radiusGatewayProvider(id: string, config: ProviderConfig | undefined): Provider | undefined {
	if (config?.oauth !== "radius" || !config.baseUrl) return undefined;
	return radiusProvider({ id, name: config.name ?? id, gateway: config.baseUrl.replace(/\/v1\/?$/u, "") });
}

/** One provider composed from its base, models.json and an extension overlay (docs/models.md). */
export function buildComposedProvider(
	id: string,
	base: Provider | undefined,
	config: ProviderConfig | undefined,
	registration: ProviderConfig | undefined,
): Provider {
	// An extension's own sign-in replaces the base's; the rest of its registration is an overlay.
	const signIn = isExtensionOAuthConfig(registration?.oauth) ? extensionOAuth(registration.oauth) : undefined;
	const overlay = signIn && registration ? { ...registration, oauth: undefined } : registration;
	const baseAuth = signIn ? { ...base?.auth, oauth: signIn } : base?.auth;
	const start: BaseProvider = {
		id,
		name: base?.name,
		models: base?.getModels() ?? [],
		hasApiKeyAuth: base?.auth.apiKey !== undefined,
		hasOAuth: baseAuth?.oauth !== undefined,
	};
	let composed = composeProvider(start, config);
	if (overlay) composed = applyOverlay(composed, overlay);
	const baseUrl = overlay?.baseUrl ?? config?.baseUrl ?? base?.baseUrl;
	const listServedModels = base?.refreshModels ? servedModelLister(base) : undefined;
	return createProvider({
		id,
		name: composed.name,
		...(baseUrl !== undefined ? { baseUrl } : {}),
		auth: composedAuth(baseAuth, composed),
		models: composed.models,
		api: composedStreams(base),
		...(listServedModels ? { fetchModels: listServedModels } : {}),
	});
}

/**
 * A provider that lists its models from its server (a local one) keeps doing so under models.json: its own
 * refresh runs against the configured base URL, and what it would publish becomes the composed list.
 */
function servedModelLister(base: Provider): (context: RefreshModelsContext) => Promise<readonly AnyModel[]> {
	return async (context) => {
		let listed: readonly AnyModel[] = [];
		await base.refreshModels?.({
			...context,
			stored: undefined,
			publish: async ({ persist }) => {
				if (persist?.models) listed = persist.models;
				return false;
			},
		});
		return listed;
	};
}

/** An extension overlay: `models` replace the list; a registration with only baseUrl/headers keeps it. */
function applyOverlay(composed: ComposedProvider, overlay: ProviderConfig): ComposedProvider {
	const layered = composeProvider(
		{
			id: composed.id,
			name: composed.name,
			models: composed.models,
			hasApiKeyAuth: composed.hasApiKeyAuth,
			hasOAuth: composed.hasOAuth,
		},
		overlay,
	);
	if (overlay.models) {
		const ids = new Set(overlay.models.map((model) => model.id));
		layered.models = layered.models.filter((model) => ids.has(model.id));
	}
	return {
		...layered,
		apiKey: overlay.apiKey ?? composed.apiKey,
		headers: composed.headers || overlay.headers ? { ...composed.headers, ...overlay.headers } : undefined,
		authHeader: overlay.authHeader ?? composed.authHeader,
	};
}
