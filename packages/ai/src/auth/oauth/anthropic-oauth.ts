/**
 * Claude Pro/Max sign-in (docs/providers.md): PKCE in the browser with a loopback callback, or a
 * copy-the-code page for machines without a browser. The access token is used as the API key; the
 * Anthropic API recognises it and signs requests as a subscription (api/anthropic-messages).
 */
import type { AuthInteraction, OAuthCredential } from "../../types/auth.js";
import { callbackPort, oauthEndpoint } from "./oauth-endpoint.js";
import { createPkce } from "./pkce.js";
import { exchangeAuthorizationCode, oauthRequest, requireNumber, requireString } from "./token-request.js";

const PROVIDER = "Anthropic";
const CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
const AUTHORIZE_URL = "https://claude.ai/oauth/authorize";
const TOKEN_URL = "https://platform.claude.com/v1/oauth/token";
const PASTE_REDIRECT_URI = "https://platform.claude.com/oauth/code/callback";
const CALLBACK_PORT = 53692;
const SCOPES = [
	"org:create_api_key",
	"user:profile",
	"user:inference",
	"user:sessions:claude_code",
	"user:mcp_servers",
	"user:file_upload",
].join(" ");
/** Tokens are treated as expired five minutes early, so a request never starts with a dying one. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

function authorizeUrl(redirectUri: string, challenge: string, state: string): string {
	const params = new URLSearchParams({
		code: "true",
		client_id: CLIENT_ID,
		response_type: "code",
		redirect_uri: redirectUri,
		scope: SCOPES,
		code_challenge: challenge,
		code_challenge_method: "S256",
		state,
	});
	return `${oauthEndpoint(AUTHORIZE_URL)}?${params}`;
}

function credentialFrom(json: Record<string, unknown>): OAuthCredential {
	return {
		type: "oauth",
		refresh: requireString(json, "refresh_token", PROVIDER),
		access: requireString(json, "access_token", PROVIDER),
		expires: Date.now() + requireNumber(json, "expires_in", PROVIDER) * 1000 - EXPIRY_MARGIN_MS,
	};
}

async function exchangeCode(
	code: string,
	verifier: string,
	redirectUri: string,
	signal: AbortSignal | undefined,
): Promise<OAuthCredential> {
	const json = await exchangeAuthorizationCode({
		provider: PROVIDER,
		url: oauthEndpoint(TOKEN_URL),
		clientId: CLIENT_ID,
		code,
		verifier,
		redirectUri,
		extra: { state: verifier },
		signal,
	});
	return credentialFrom(json);
}

async function browserLogin(interaction: AuthInteraction): Promise<OAuthCredential> {
	const { startLoopbackCallback, codeFromCallbackOrPaste } = await import("./loopback-callback.js");
	// Anthropic ties `state` to the PKCE verifier.
	const { verifier, challenge } = createPkce();
	const start = (port: number) =>
		startLoopbackCallback({
			provider: PROVIDER,
			port,
			path: "/callback",
			redirectHost: "localhost",
			state: verifier,
			...(interaction.signal ? { signal: interaction.signal } : {}),
		});
	// The registered port can be forwarded over SSH; any loopback port is accepted when it is taken.
	const callback = await start(callbackPort(CALLBACK_PORT)).catch(() => start(0));
	try {
		await interaction.notify({
			type: "auth_url",
			url: authorizeUrl(callback.redirectUri, challenge, verifier),
			instructions:
				"Sign in to Claude in your browser. If the browser runs on another machine, paste the address it ends on here.",
		});
		const code = await codeFromCallbackOrPaste(
			interaction,
			callback,
			verifier,
			"Paste the authorization code or the final redirect URL",
		);
		await interaction.notify({ type: "progress", message: "Exchanging the authorization code…" });
		return await exchangeCode(code, verifier, callback.redirectUri, interaction.signal);
	} finally {
		callback.close();
	}
}

async function pasteLogin(interaction: AuthInteraction): Promise<OAuthCredential> {
	const { codeFromCallbackOrPaste } = await import("./loopback-callback.js");
	const { verifier, challenge } = createPkce();
	await interaction.notify({
		type: "auth_url",
		url: authorizeUrl(PASTE_REDIRECT_URI, challenge, verifier),
		instructions: "Sign in to Claude in any browser, then copy the code the page shows.",
	});
	const code = await codeFromCallbackOrPaste(interaction, undefined, verifier, "Paste the code Anthropic shows");
	await interaction.notify({ type: "progress", message: "Exchanging the authorization code…" });
	return exchangeCode(code, verifier, PASTE_REDIRECT_URI, interaction.signal);
}

export async function login(interaction: AuthInteraction): Promise<OAuthCredential> {
	const method = await interaction.prompt({
		type: "select",
		message: "How do you want to sign in to Claude?",
		options: [
			{ value: "browser", label: "Browser on this machine (default)" },
			{ value: "paste", label: "Copy a code from any browser (remote machine)" },
		],
	});
	return method === "paste" ? pasteLogin(interaction) : browserLogin(interaction);
}

export async function refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential> {
	const json = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(TOKEN_URL),
		body: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh },
		signal,
	});
	return { ...credential, ...credentialFrom(json) };
}

export async function toAuth(credential: OAuthCredential): Promise<{ apiKey: string }> {
	return { apiKey: credential.access };
}
