/**
 * ChatGPT Plus/Pro sign-in for the Codex backend (docs/providers.md): PKCE in the browser with a
 * loopback callback on the port the Codex CLI registered, or the pasted redirect URL when the browser
 * runs elsewhere. The access token is a JWT naming the ChatGPT account the requests are billed to.
 */
import type { AuthInteraction, LoginOptions, OAuthCredential } from "../../types/auth.js";
import { callbackPort, oauthEndpoint } from "./oauth-endpoint.js";
import { createPkce, createState } from "./pkce.js";
import { oauthRequest, requireNumber, requireString } from "./token-request.js";

const PROVIDER = "OpenAI";
const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const AUTHORIZE_URL = "https://auth.openai.com/oauth/authorize";
const TOKEN_URL = "https://auth.openai.com/oauth/token";
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const SCOPE = "openid profile email offline_access";
const ACCOUNT_CLAIM = "https://api.openai.com/auth";

/** The ChatGPT account id claim of an access token, if it has one. */
export function chatgptAccountId(accessToken: string): string | undefined {
	const payload = accessToken.split(".")[1];
	if (!payload) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
		const auth = claims[ACCOUNT_CLAIM] as Record<string, unknown> | undefined;
		const id = auth?.chatgpt_account_id;
		return typeof id === "string" && id ? id : undefined;
	} catch {
		return undefined;
	}
}

function credentialFrom(json: Record<string, unknown>): OAuthCredential {
	const access = requireString(json, "access_token", PROVIDER);
	const accountId = chatgptAccountId(access);
	if (!accountId) throw new Error(`${PROVIDER} access token names no ChatGPT account; is the subscription active?`);
	return {
		type: "oauth",
		access,
		refresh: requireString(json, "refresh_token", PROVIDER),
		expires: Date.now() + requireNumber(json, "expires_in", PROVIDER) * 1000,
		accountId,
	};
}

export async function login(interaction: AuthInteraction, options?: LoginOptions): Promise<OAuthCredential> {
	const { startLoopbackCallback, codeFromCallbackOrPaste } = await import("./loopback-callback.js");
	const { verifier, challenge } = createPkce();
	const state = createState();
	// The port is shared with the Codex CLI: when it is taken, the pasted redirect URL still works.
	const callback = await startLoopbackCallback({
		provider: PROVIDER,
		port: callbackPort(CALLBACK_PORT),
		path: CALLBACK_PATH,
		redirectHost: "localhost",
		state,
		...(interaction.signal ? { signal: interaction.signal } : {}),
	}).catch(() => undefined);
	const redirectUri = callback?.redirectUri ?? `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
	const params = new URLSearchParams({
		response_type: "code",
		client_id: CLIENT_ID,
		redirect_uri: redirectUri,
		scope: SCOPE,
		code_challenge: challenge,
		code_challenge_method: "S256",
		state,
		id_token_add_organizations: "true",
		codex_cli_simplified_flow: "true",
		originator: options?.agentName ?? "tau",
	});
	try {
		await interaction.notify({
			type: "auth_url",
			url: `${oauthEndpoint(AUTHORIZE_URL)}?${params}`,
			instructions:
				"Sign in to ChatGPT in your browser. If the browser runs on another machine, paste the address it ends on here.",
		});
		const code = await codeFromCallbackOrPaste(interaction, callback, state, "Paste the final redirect URL");
		await interaction.notify({ type: "progress", message: "Exchanging the authorization code…" });
		const json = await oauthRequest({
			provider: PROVIDER,
			url: oauthEndpoint(TOKEN_URL),
			form: true,
			body: {
				grant_type: "authorization_code",
				client_id: CLIENT_ID,
				code,
				code_verifier: verifier,
				redirect_uri: redirectUri,
			},
			...(interaction.signal ? { signal: interaction.signal } : {}),
		});
		return credentialFrom(json);
	} finally {
		callback?.close();
	}
}

export async function refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const json = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(TOKEN_URL),
		form: true,
		body: { grant_type: "refresh_token", refresh_token: credential.refresh, client_id: CLIENT_ID },
		signal,
	});
	return { ...credential, ...credentialFrom(json) };
}

export async function toAuth(credential: OAuthCredential): Promise<{ apiKey: string }> {
	return { apiKey: credential.access };
}
