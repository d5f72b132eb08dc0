import type { ApiKeyAuth, AuthInteraction, LoginOptions, OAuthAuth, OAuthCredential } from "../types/auth.js";

/**
 * API-key auth read from a stored/explicit key first, then the first non-empty env var of `envVars`.
 */
export function envApiKeyAuth(name: string, envVars: readonly string[]): ApiKeyAuth {
	return {
		name,
		async resolve({ ctx, credential }) {
			if (credential?.key) {
				return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
			}
			for (const variable of envVars) {
				const value = await ctx.env(variable);
				if (value) return { auth: { apiKey: value }, source: variable };
			}
			return undefined;
		},
		async login(interaction) {
			const key = await interaction.prompt({ type: "secret", message: `Enter ${name}` });
			return { type: "api_key", key };
		},
	};
}

/** Auth for a keyless server (local runtimes): always configured, sends no key. */
export function keylessAuth(name: string): ApiKeyAuth {
	return { name, resolve: async () => ({ auth: {} }) };
}

/** Options of `lazyOAuth`: the sign-in's name and labels, and the loader of its implementation (run on first use). */
export interface LazyOAuthOptions {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	load: () => Promise<Omit<OAuthAuth, "name" | "isSubscription" | "loginLabel">>;
}

/** An `OAuthAuth` whose implementation is loaded on first use (memoized). */
export function lazyOAuth(options: LazyOAuthOptions): OAuthAuth {
	let loaded: ReturnType<LazyOAuthOptions["load"]> | undefined;
	const implementation = () => {
		loaded ??= options.load();
		return loaded;
	};
	const auth: OAuthAuth = {
		name: options.name,
		login: async (interaction: AuthInteraction, loginOptions?: LoginOptions) =>
			(await implementation()).login(interaction, loginOptions),
		refresh: async (credential: OAuthCredential, signal: AbortSignal) =>
			(await implementation()).refresh(credential, signal),
		toAuth: async (credential: OAuthCredential) => (await implementation()).toAuth(credential),
	};
	if (options.isSubscription !== undefined) auth.isSubscription = options.isSubscription;
	if (options.loginLabel !== undefined) auth.loginLabel = options.loginLabel;
	return auth;
}
