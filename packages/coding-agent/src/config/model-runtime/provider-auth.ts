import type { ApiKeyAuth, ApiKeyAuthInput, AuthResult, ModelAuth, OAuthAuth, ProviderAuth } from "@tau/ai";
import { resolveConfigValueUncached, resolveHeadersOrThrow } from "../auth/value-reference.js";
import type { ComposedProvider } from "../models-json/compose.js";
import { mergeHeaders } from "../models-json/headers.js";

/**
 * Auth of a composed provider. Stored and runtime credentials come first (the store decides);
 * with nothing usable stored, a models.json `apiKey` is used before the provider's ambient
 * credentials. Configured headers and `authHeader` are applied over the auth-derived headers.
 */
export function composedAuth(base: ProviderAuth | undefined, composed: ComposedProvider): ProviderAuth {
	const auth: ProviderAuth = {};
	if (composed.hasApiKeyAuth) auth.apiKey = composedApiKeyAuth(base?.apiKey, composed);
	if (base?.oauth) auth.oauth = composedOAuth(base.oauth, composed);
	return auth;
}

function composedApiKeyAuth(base: ApiKeyAuth | undefined, composed: ComposedProvider): ApiKeyAuth {
	const resolveKey = async (input: ApiKeyAuthInput): Promise<AuthResult | undefined> => {
		const { credential } = input;
		if (credential?.key !== undefined) {
			if (base) return base.resolve(input);
			return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
		}
		if (composed.apiKey !== undefined) {
			const key = resolveConfigValueUncached(composed.apiKey, credential?.env);
			return key === undefined ? undefined : { auth: { apiKey: key }, source: "models.json" };
		}
		return base?.resolve(input);
	};
	const apiKey: ApiKeyAuth = {
		name: base?.name ?? composed.name,
		resolve: async (input) => {
			const result = await resolveKey(input);
			if (!result) return undefined;
			return { ...result, auth: withConfiguredHeaders(result.auth, composed, input.credential?.env) };
		},
	};
	if (base?.login) apiKey.login = (interaction) => base.login!(interaction);
	return apiKey;
}

function composedOAuth(base: OAuthAuth, composed: ComposedProvider): OAuthAuth {
	const oauth: OAuthAuth = {
		name: base.name,
		login: (interaction, options) => base.login(interaction, options),
		refresh: (credential, signal) => base.refresh(credential, signal),
		toAuth: async (credential) => withConfiguredHeaders(await base.toAuth(credential), composed, undefined),
	};
	if (base.isSubscription !== undefined) oauth.isSubscription = base.isSubscription;
	if (base.loginLabel !== undefined) oauth.loginLabel = base.loginLabel;
	return oauth;
}

/** Auth-derived headers < `Authorization: Bearer` (authHeader) < configured provider headers. */
function withConfiguredHeaders(
	auth: ModelAuth,
	composed: ComposedProvider,
	env: Readonly<Record<string, string>> | undefined,
): ModelAuth {
	if (!composed.headers && !composed.authHeader) return auth;
	let bearer: Record<string, string> | undefined;
	if (composed.authHeader) {
		if (!auth.apiKey) throw new Error("authHeader requires a resolved API key");
		bearer = { Authorization: `Bearer ${auth.apiKey}` };
	}
	const configured = composed.headers ? resolveHeadersOrThrow(composed.headers, env) : undefined;
	return { ...auth, headers: mergeHeaders<string | null>(auth.headers, bearer, configured) };
}
