import { ModelsError } from "../models/models-error.js";
import { describeThrown } from "../stream/failure.js";
import type {
	AuthCheck,
	AuthContext,
	AuthResolutionOverrides,
	AuthResult,
	Credential,
	CredentialStore,
} from "../types/auth.js";
import type { Provider } from "../types/provider.js";
import { neverAbortingSignal, raceSignal } from "../utils/abort.js";
import { overlayAuthEnv } from "./auth-context.js";
import { resolveStoredOAuth } from "./oauth-refresh.js";

async function readStored(
	store: CredentialStore,
	providerId: string,
	signal: AbortSignal,
): Promise<Credential | undefined> {
	try {
		return await store.read(providerId, { signal });
	} catch (error) {
		if (signal.aborted) throw error;
		throw new ModelsError("auth", `Could not read credentials for ${providerId}: ${describeThrown(error)}`, {
			cause: error,
		});
	}
}

async function guardResolve<T>(providerId: string, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		if (error instanceof ModelsError || signal.aborted) throw error;
		throw new ModelsError("auth", `Auth resolution failed for ${providerId}: ${describeThrown(error)}`, {
			cause: error,
		});
	}
}

/**
 * Resolves request auth in the specified order: explicit key, then the stored credential (which owns the
 * provider: no env fallback), then the ambient environment. Races the caller's signal.
 */
export function resolveProviderAuth(
	provider: Pick<Provider, "id" | "auth">,
	store: CredentialStore,
	context: AuthContext,
	overrides: AuthResolutionOverrides = {},
): Promise<AuthResult | undefined> {
	const signal = overrides.signal ?? neverAbortingSignal();
	const ctx = overrides.env ? overlayAuthEnv(context, overrides.env) : context;
	const { apiKey, oauth } = provider.auth;
	const run = async (): Promise<AuthResult | undefined> => {
		if (overrides.apiKey !== undefined && apiKey) {
			const credential = { type: "api_key" as const, key: overrides.apiKey, env: overrides.env };
			return guardResolve(provider.id, signal, () => apiKey.resolve({ ctx, credential, signal }));
		}
		const stored = await readStored(store, provider.id, signal);
		if (stored?.type === "oauth") {
			if (!oauth) return undefined;
			return resolveStoredOAuth(store, provider.id, oauth, stored, overrides.minOAuthValidityMs, signal);
		}
		if (stored?.type === "api_key") {
			if (!apiKey) return undefined;
			const credential = { ...stored, env: { ...stored.env, ...overrides.env } };
			return guardResolve(provider.id, signal, () => apiKey.resolve({ ctx, credential, signal }));
		}
		if (stored) return undefined;
		return apiKey ? guardResolve(provider.id, signal, () => apiKey.resolve({ ctx, signal })) : undefined;
	};
	return raceSignal(run(), overrides.signal);
}

/** Whether a provider is configured, without ever refreshing OAuth tokens. */
export function checkProviderAuth(
	provider: Pick<Provider, "id" | "auth">,
	store: CredentialStore,
	context: AuthContext,
	callerSignal?: AbortSignal,
): Promise<AuthCheck | undefined> {
	const signal = callerSignal ?? neverAbortingSignal();
	const { apiKey, oauth } = provider.auth;
	const run = async (): Promise<AuthCheck | undefined> => {
		const stored = await readStored(store, provider.id, signal);
		if (stored?.type === "oauth") return oauth ? { source: "OAuth", type: "oauth" } : undefined;
		if (stored && !apiKey) return undefined;
		if (!apiKey) return undefined;
		const credential = stored?.type === "api_key" ? stored : undefined;
		return guardResolve(provider.id, signal, async () => {
			if (apiKey.check) return apiKey.check({ ctx: context, credential, signal });
			const result = await apiKey.resolve({ ctx: context, credential, signal });
			return result ? { source: result.source, type: "api_key" } : undefined;
		});
	};
	return raceSignal(run(), callerSignal);
}
