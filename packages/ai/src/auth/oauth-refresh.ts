import { ModelsError } from "../models/models-error.js";
import type { AuthResult, CredentialStore, OAuthAuth, OAuthCredential } from "../types/auth.js";
import { OAuthGrantRejectedError } from "./oauth/token-request.js";

const MIN_OAUTH_VALIDITY_MS = 5 * 60_000;
const OAUTH_REFRESH_TIMEOUT_MS = 15_000;

/**
 * Refreshes a stored OAuth credential under the store's lock. Inside the lock the current value is
 * re-read: nothing is written when the provider was logged out or someone else already refreshed it.
 * The caller's signal only cancels waiting for the lock: once a refresh token rotates, abandoning the
 * call would lose the only valid token, so the refresh itself runs under its own timeout.
 */
export async function refreshStoredOAuthCredential(
	store: CredentialStore,
	providerId: string,
	oauth: OAuthAuth,
	expiresSoon: (credential: OAuthCredential) => boolean,
	signal?: AbortSignal,
): Promise<OAuthCredential | undefined> {
	let refreshFailure: ModelsError | undefined;
	let result: Awaited<ReturnType<CredentialStore["modify"]>>;
	try {
		result = await store.modify(
			providerId,
			async (current) => {
				if (current?.type !== "oauth" || !expiresSoon(current)) return undefined;
				try {
					const refreshed = await oauth.refresh(current, AbortSignal.timeout(OAUTH_REFRESH_TIMEOUT_MS));
					return { ...refreshed, type: "oauth" };
				} catch (error) {
					refreshFailure = new ModelsError("oauth", refreshFailureMessage(providerId, error), { cause: error });
					throw refreshFailure;
				}
			},
			signal ? { signal } : undefined,
		);
	} catch (error) {
		if (error === refreshFailure || signal?.aborted) throw error;
		throw new ModelsError("auth", `Credential store modify failed for ${providerId}`, { cause: error });
	}
	return result?.type === "oauth" ? result : undefined;
}

/** A revoked or expired sign-in says what helps: only signing in again does. */
function refreshFailureMessage(providerId: string, error: unknown): string {
	const base = `OAuth refresh failed for ${providerId}`;
	if (!(error instanceof OAuthGrantRejectedError)) return base;
	return `${base}: the sign-in was revoked or has expired; sign in again (/login or "auth login ${providerId}")`;
}

/** Request auth from a stored OAuth credential, refreshing it first when it expires soon. */
export async function resolveStoredOAuth(
	store: CredentialStore,
	providerId: string,
	oauth: OAuthAuth,
	stored: OAuthCredential,
	minOAuthValidityMs: number | undefined,
	signal?: AbortSignal,
): Promise<AuthResult | undefined> {
	const margin = Math.max(MIN_OAUTH_VALIDITY_MS, minOAuthValidityMs ?? 0);
	const expiresSoon = (credential: OAuthCredential) => Date.now() + margin >= credential.expires;
	let credential: OAuthCredential | undefined = stored;
	if (expiresSoon(credential)) {
		credential = await refreshStoredOAuthCredential(store, providerId, oauth, expiresSoon, signal);
		if (!credential) return undefined;
		if (minOAuthValidityMs !== undefined && expiresSoon(credential)) {
			throw new ModelsError("oauth", `OAuth refresh returned a token that expires too soon for ${providerId}`);
		}
	}
	try {
		return { auth: await oauth.toAuth(credential), source: "OAuth" };
	} catch (error) {
		throw new ModelsError("oauth", `OAuth auth derivation failed for ${providerId}`, { cause: error });
	}
}
