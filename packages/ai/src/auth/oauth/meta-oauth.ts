/**
 * Meta (Muse subscription) sign-in (docs/providers.md): an RFC 8628 device login yields an identity
 * token, which is not accepted for inference but mints Model API keys that live about a day. The
 * identity token is kept as the refresh token and the key as the access token, so a "refresh" mints
 * a new key; the identity token itself cannot be renewed, so a refused mint means signing in again.
 */
import type { AuthInteraction, OAuthCredential } from "../../types/auth.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { deviceTokenResponse } from "./standard-device-login.js";
import { oauthRequest, requireString } from "./token-request.js";

const PROVIDER = "Meta";
const KEY_MINT_URL = "https://api.meta.ai/muse-code/key";
const KEY_LIFETIME_MS = 24 * 60 * 60_000;

async function mintKey(identityToken: string, signal: AbortSignal | undefined): Promise<OAuthCredential> {
	const json = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(KEY_MINT_URL),
		body: {},
		headers: { Authorization: `Bearer ${identityToken}`, "x-api-version": "1.0.0" },
		unauthorizedIsRejection: true,
		...(signal ? { signal } : {}),
	});
	const key = json.api_key;
	if (typeof key !== "string" || !key) {
		const action = typeof json.action_url === "string" ? ` Complete the setup at ${json.action_url}` : "";
		throw new Error(`${PROVIDER} issued no API key.${action}`);
	}
	return { type: "oauth", refresh: identityToken, access: key, expires: Date.now() + KEY_LIFETIME_MS };
}

export async function login(interaction: AuthInteraction): Promise<OAuthCredential> {
	const tokens = await deviceTokenResponse(
		{
			provider: PROVIDER,
			clientId: "1031625952748946",
			deviceUrl: "https://auth.meta.com/oidc/device/authorization/",
			tokenUrl: "https://auth.meta.com/oidc/device/token/",
		},
		interaction,
	);
	await interaction.notify({ type: "progress", message: "Enabling Meta Model API access…" });
	return mintKey(requireString(tokens, "access_token", PROVIDER), interaction.signal);
}

export async function refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	return { ...credential, ...(await mintKey(credential.refresh, signal)) };
}

export async function toAuth(credential: OAuthCredential): Promise<{ apiKey: string }> {
	return { apiKey: credential.access };
}
