import { refreshStoredOAuthCredential } from "../auth/oauth-refresh.js";
import type { AuthContext, Credential, CredentialStore } from "../types/auth.js";
import type { ModelsRefreshOptions, ModelsStore, Provider } from "../types/provider.js";

const OAUTH_REFRESH_MARGIN_MS = 5 * 60_000;

export interface CatalogRefreshDeps {
	credentials: CredentialStore;
	/** Where a provider's API-key auth reads env keys and files. */
	authContext: AuthContext;
	modelsStore: ModelsStore;
	/** Whether the provider is configured (never refreshes OAuth). */
	isConfigured(provider: Provider, signal: AbortSignal): Promise<boolean>;
	/** False once a newer refresh of this provider started or the provider was replaced. */
	isCurrent(provider: Provider, generation: number): boolean;
	startGeneration(provider: Provider): number;
}

/**
 * The credential a network refresh uses: a stored OAuth one (refreshed when about to expire), else the key
 * the provider's API-key auth resolves (stored, from the env or models.json), so a server that wants a key
 * for its model list gets the one its chat requests carry.
 */
async function effectiveCredential(
	provider: Provider,
	deps: CatalogRefreshDeps,
	signal: AbortSignal,
): Promise<Credential | undefined> {
	const stored = await deps.credentials.read(provider.id, { signal });
	const oauth = provider.auth.oauth;
	if (stored?.type === "oauth") {
		if (!oauth || provider.refreshModelsAuth === "configured") return stored;
		if (Date.now() + OAUTH_REFRESH_MARGIN_MS < stored.expires) return stored;
		const expiresSoon = (credential: { expires: number }) =>
			Date.now() + OAUTH_REFRESH_MARGIN_MS >= credential.expires;
		return refreshStoredOAuthCredential(deps.credentials, provider.id, oauth, expiresSoon, signal);
	}
	const apiKey = provider.auth.apiKey;
	if (!apiKey || provider.refreshModelsAuth === "configured") return stored;
	const resolved = await apiKey.resolve({ ctx: deps.authContext, ...(stored ? { credential: stored } : {}), signal });
	if (!resolved?.auth.apiKey) return stored;
	return { type: "api_key", key: resolved.auth.apiKey, ...(resolved.env ? { env: resolved.env } : {}) };
}

/**
 * One provider's refresh: the stored catalog is restored first (offline), then, when the network is allowed
 * and the provider is configured, the provider fetches with the effective credential. Publication is
 * generation-checked so a superseded refresh cannot overwrite a newer one.
 */
export async function refreshProviderCatalog(
	provider: Provider,
	deps: CatalogRefreshDeps,
	options: ModelsRefreshOptions,
	signal: AbortSignal,
): Promise<void> {
	const refreshModels = provider.refreshModels;
	if (!refreshModels) return;
	const generation = deps.startGeneration(provider);
	const stored = await deps.modelsStore.read(provider.id, { signal });
	let allowNetwork = options.allowNetwork !== false && (await deps.isConfigured(provider, signal));
	let credential: Credential | undefined;
	if (allowNetwork) {
		credential = await effectiveCredential(provider, deps, signal);
		allowNetwork = !signal.aborted;
	}
	await refreshModels.call(provider, {
		...(credential ? { credential } : {}),
		...(stored ? { stored } : {}),
		...(options.force !== undefined ? { force: options.force } : {}),
		...(provider.baseUrl !== undefined ? { baseUrl: provider.baseUrl } : {}),
		allowNetwork,
		signal,
		publish: async ({ persist, update }) => {
			if (!deps.isCurrent(provider, generation)) return false;
			if (persist === null) await deps.modelsStore.delete(provider.id, { signal });
			else if (persist) await deps.modelsStore.write(provider.id, persist, { signal });
			if (!deps.isCurrent(provider, generation)) return false;
			update?.();
			return true;
		},
	});
}
