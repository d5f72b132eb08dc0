import type { ApiKeyAuth, ApiKeyCredential, AuthContext } from "../../types/auth.js";
import type { Provider } from "../../types/provider.js";
import { requestEnv } from "../../utils/request-env.js";
import { apiByModel } from "../api-registry.js";
import { catalogProvider } from "../catalog/catalog-provider.js";
import { rewritingStreams } from "../catalog/rewriting-streams.js";

type CloudflareVariable = "CLOUDFLARE_API_KEY" | "CLOUDFLARE_ACCOUNT_ID" | "CLOUDFLARE_GATEWAY_ID";

/** A stored value of the credential (the key, or one of its env values), else the ambient env. */
async function credentialValue(
	name: CloudflareVariable,
	ctx: AuthContext,
	credential: ApiKeyCredential | undefined,
): Promise<string | undefined> {
	const stored = name === "CLOUDFLARE_API_KEY" ? credential?.key : credential?.env?.[name];
	return stored ?? (await ctx.env(name));
}

/**
 * Cloudflare needs the account (and for AI Gateway the gateway) besides the key; they travel as request
 * env and fill the `{CLOUDFLARE_ACCOUNT_ID}`/`{CLOUDFLARE_GATEWAY_ID}` placeholders of the base URLs.
 */
function cloudflareAuth(gateway: boolean): ApiKeyAuth {
	return {
		name: "Cloudflare API key",
		async resolve({ ctx, credential }) {
			const key = await credentialValue("CLOUDFLARE_API_KEY", ctx, credential);
			const account = await credentialValue("CLOUDFLARE_ACCOUNT_ID", ctx, credential);
			const gatewayId = gateway ? await credentialValue("CLOUDFLARE_GATEWAY_ID", ctx, credential) : undefined;
			if (!key || !account || (gateway && !gatewayId)) return undefined;
			const env = { CLOUDFLARE_ACCOUNT_ID: account, ...(gatewayId ? { CLOUDFLARE_GATEWAY_ID: gatewayId } : {}) };
			const source = credential ? "stored credential" : "CLOUDFLARE_API_KEY";
			// AI Gateway authenticates the gateway with its own header; the upstream key headers stay unset.
			const auth = gateway
				? { headers: { "cf-aig-authorization": `Bearer ${key}`, Authorization: null, "x-api-key": null } }
				: { apiKey: key };
			return { auth, env, source };
		},
		async login(interaction) {
			const key = await interaction.prompt({ type: "secret", message: "Enter Cloudflare API key" });
			const account = await interaction.prompt({ type: "text", message: "Enter Cloudflare account ID" });
			const env: Record<string, string> = { CLOUDFLARE_ACCOUNT_ID: account };
			if (gateway)
				env.CLOUDFLARE_GATEWAY_ID = await interaction.prompt({
					type: "text",
					message: "Enter Cloudflare AI Gateway ID",
				});
			return { type: "api_key", key, env };
		},
	};
}

/** Every request's base URL with its `{VARIABLE}` placeholders filled from the request env. */
function placeholderStreams() {
	return rewritingStreams(apiByModel(), (model, options) => {
		const baseUrl = model.baseUrl.replace(/\{(CLOUDFLARE_[A-Z_]+)\}/g, (_, name: string) => {
			const value = requestEnv(name, options);
			if (!value)
				throw new Error(`${name} is required for ${model.provider} (set it or run /login ${model.provider})`);
			return encodeURIComponent(value);
		});
		return { model: baseUrl === model.baseUrl ? model : { ...model, baseUrl }, options };
	});
}

/**
 * The Cloudflare Workers AI provider: models served by the user's account, authorized by `CLOUDFLARE_API_KEY` and
 * `CLOUDFLARE_ACCOUNT_ID` (or stored values).
 */
export function cloudflareWorkersAIProvider(): Provider {
	return catalogProvider({
		id: "cloudflare-workers-ai",
		name: "Cloudflare Workers AI",
		auth: { apiKey: cloudflareAuth(false) },
		api: placeholderStreams(),
	});
}

/**
 * The Cloudflare AI Gateway provider: models routed through a gateway of the user's account, authorized by
 * `CLOUDFLARE_API_KEY` and `CLOUDFLARE_ACCOUNT_ID` (or stored values).
 */
export function cloudflareAIGatewayProvider(): Provider {
	return catalogProvider({
		id: "cloudflare-ai-gateway",
		name: "Cloudflare AI Gateway",
		auth: { apiKey: cloudflareAuth(true) },
		api: placeholderStreams(),
	});
}
