/**
 * "Sign in with ChatGPT" for the plain `openai` provider (docs/providers.md): PKCE in the browser with
 * dynamic client registration. Every sign-in registers a new public client; the id OpenAI issues comes
 * back in the callback and is kept for refreshes. The token is sent to api.openai.com as the API key.
 */
import type { AuthInteraction, LoginOptions, OAuthCredential } from "../../types/auth.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { createPkce, createState } from "./pkce.js";
import {
	exchangeAuthorizationCode,
	OAuthGrantRejectedError,
	oauthRequest,
	requireNumber,
	requireString,
} from "./token-request.js";

const PROVIDER = "OpenAI";
/** Asks OpenAI to register a new client for this sign-in. */
const DYNAMIC_CLIENT_ID = "dynamic_agent_client";
const AUTHORIZE_URL = "https://auth.openai.com/api/accounts/authorize";
const TOKEN_URL = "https://auth.openai.com/api/accounts/oauth/token";
const RESOURCE = "https://api.openai.com/v1";
/** The port and path Codex registered too: when it is taken, the pasted redirect URL still works. */
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const DIRECT_TOKEN_SCOPE = "chatgpt.tokens.use.direct";
const SCOPE = `openid profile email offline_access resource.invoke ${DIRECT_TOKEN_SCOPE}`;
/** Refresh this long before the real expiry, so no request starts with a token about to lapse (as Pi). */
const EXPIRY_MARGIN_MS = 3 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** OpenAI names each installation by a stable URI built from the settings' device id. */
async function agentHostId(options: LoginOptions | undefined): Promise<string> {
	const deviceId = await options?.getDeviceId?.();
	if (!deviceId || !UUID.test(deviceId)) {
		throw new Error("Sign in with ChatGPT needs this installation's device id (a UUID)");
	}
	return `urn:uuid:${deviceId.toLowerCase()}`;
}

function credentialFrom(json: Record<string, unknown>, clientId: string): OAuthCredential {
	const scopes = requireString(json, "scope", PROVIDER).trim().split(/\s+/);
	if (!scopes.includes(DIRECT_TOKEN_SCOPE)) {
		throw new Error(`${PROVIDER} did not grant ${DIRECT_TOKEN_SCOPE}; this account cannot use the API this way`);
	}
	const expiresIn = requireNumber(json, "expires_in", PROVIDER);
	return {
		type: "oauth",
		access: requireString(json, "access_token", PROVIDER),
		refresh: requireString(json, "refresh_token", PROVIDER),
		expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS,
		clientId,
		scopes,
	};
}

export async function login(interaction: AuthInteraction, options?: LoginOptions): Promise<OAuthCredential> {
	const hostId = await agentHostId(options);
	const { browserAuthorization } = await import("./browser-authorization.js");
	const { verifier, challenge } = createPkce();
	const state = createState();
	const redirect = await browserAuthorization(interaction, {
		provider: PROVIDER,
		account: "ChatGPT",
		port: CALLBACK_PORT,
		path: CALLBACK_PATH,
		redirectHost: "127.0.0.1",
		state,
		authorizeUrl: (redirectUri) => {
			const params = new URLSearchParams({
				client_id: DYNAMIC_CLIENT_ID,
				agent_name_hint: options?.agentName ?? "tau",
				ext_agent_host_id: hostId,
				response_type: "code",
				redirect_uri: redirectUri,
				resource: RESOURCE,
				scope: SCOPE,
				state,
				code_challenge: challenge,
				code_challenge_method: "S256",
				nonce: createState(),
			});
			return `${oauthEndpoint(AUTHORIZE_URL)}?${params}`;
		},
	});
	// The registered client's id arrives only in the redirect, so a bare pasted code is not enough.
	const clientId = redirect.params.get("client_id")?.trim();
	if (!clientId) throw new Error(`${PROVIDER} sign-in: paste the whole redirect URL (it carries the client id)`);
	if (redirect.params.get("state") !== state) throw new Error("OAuth state mismatch");
	const json = await exchangeAuthorizationCode({
		provider: PROVIDER,
		url: oauthEndpoint(TOKEN_URL),
		clientId,
		code: redirect.code,
		verifier,
		redirectUri: redirect.redirectUri,
		form: true,
		extra: { resource: RESOURCE },
		signal: interaction.signal,
	});
	// Unused, but its absence means the grant is not the one asked for (Pi checks it too).
	requireString(json, "id_token", PROVIDER);
	return credentialFrom(json, clientId);
}

export async function refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const clientId = credential.clientId;
	if (typeof clientId !== "string" || clientId === "") {
		// Only a new sign-in registers a client, so this is reported like a revoked grant.
		throw new OAuthGrantRejectedError(PROVIDER, "the saved sign-in has no issued client id");
	}
	const json = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(TOKEN_URL),
		form: true,
		body: { grant_type: "refresh_token", client_id: clientId, refresh_token: credential.refresh, resource: RESOURCE },
		signal,
	});
	return { ...credential, ...credentialFrom(json, clientId) };
}

export async function toAuth(credential: OAuthCredential): Promise<{ apiKey: string }> {
	return { apiKey: credential.access };
}
