/**
 * OpenRouter sign-in (docs/providers.md): PKCE in the browser, and the code is exchanged for a
 * permanent API key the user controls on openrouter.ai, stored as a credential that never expires.
 */
import { randomUUID } from "node:crypto";
import type { AuthInteraction, OAuthCredential } from "../../types/auth.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { createPkce } from "./pkce.js";
import { oauthRequest, requireString } from "./token-request.js";

const PROVIDER = "OpenRouter";
const AUTHORIZE_URL = "https://openrouter.ai/auth";
const KEY_URL = "https://openrouter.ai/api/v1/auth/keys";

export async function login(interaction: AuthInteraction): Promise<OAuthCredential> {
	const { startLoopbackCallback, codeFromCallbackOrPaste } = await import("./loopback-callback.js");
	const { verifier, challenge } = createPkce();
	// OpenRouter sends no `state`: the random path keeps stray requests from completing the sign-in.
	const callback = await startLoopbackCallback({
		provider: PROVIDER,
		port: 0,
		path: `/oauth/callback/${randomUUID()}`,
		redirectHost: "127.0.0.1",
		state: undefined,
		...(interaction.signal ? { signal: interaction.signal } : {}),
	});
	try {
		const params = new URLSearchParams({
			callback_url: callback.redirectUri,
			code_challenge: challenge,
			code_challenge_method: "S256",
		});
		await interaction.notify({
			type: "auth_url",
			url: `${oauthEndpoint(AUTHORIZE_URL)}?${params}`,
			instructions:
				"Sign in to OpenRouter in your browser. If the browser runs on another machine, paste the address it ends on here.",
		});
		const code = await codeFromCallbackOrPaste(interaction, callback, undefined, "Paste the final redirect URL");
		await interaction.notify({ type: "progress", message: "Exchanging the authorization code for an API key…" });
		const json = await oauthRequest({
			provider: PROVIDER,
			url: oauthEndpoint(KEY_URL),
			body: { code, code_verifier: verifier, code_challenge_method: "S256" },
			...(interaction.signal ? { signal: interaction.signal } : {}),
		});
		return {
			type: "oauth",
			access: requireString(json, "key", PROVIDER),
			refresh: "",
			expires: Number.MAX_SAFE_INTEGER,
		};
	} finally {
		callback.close();
	}
}

/** The key does not expire; there is nothing to refresh. */
export async function refresh(credential: OAuthCredential): Promise<OAuthCredential> {
	return credential;
}

export async function toAuth(credential: OAuthCredential): Promise<{ apiKey: string }> {
	return { apiKey: credential.access };
}
