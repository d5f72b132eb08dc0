import { anthropicSubscriptionLogin } from "../../auth/oauth/subscription-logins.js";
import type { ApiKeyAuth } from "../../types/auth.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/** Stored key, then `ANTHROPIC_AUTH_TOKEN` (a bearer token), `ANTHROPIC_OAUTH_TOKEN`, `ANTHROPIC_API_KEY`. */
const anthropicAuth: ApiKeyAuth = {
	name: "Anthropic API key",
	async resolve({ ctx, credential }) {
		if (credential?.key)
			return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
		const token = await ctx.env("ANTHROPIC_AUTH_TOKEN");
		if (token) return { auth: { headers: { Authorization: `Bearer ${token}` } }, source: "ANTHROPIC_AUTH_TOKEN" };
		// A subscription token from the environment is used like a key (the API recognises it).
		for (const variable of ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]) {
			const key = await ctx.env(variable);
			if (key) return { auth: { apiKey: key }, source: variable };
		}
		return undefined;
	},
	async login(interaction) {
		return { type: "api_key", key: await interaction.prompt({ type: "secret", message: "Enter Anthropic API key" }) };
	},
};

/** The Anthropic provider over its shipped catalog, authorized by an API key or a Claude subscription sign-in. */
export function anthropicProvider(): Provider {
	return catalogProvider({
		id: "anthropic",
		name: "Anthropic",
		baseUrl: "https://api.anthropic.com",
		auth: { apiKey: anthropicAuth, oauth: anthropicSubscriptionLogin() },
	});
}
