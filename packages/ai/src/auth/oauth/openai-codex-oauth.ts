/**
 * ChatGPT Plus/Pro sign-in for the Codex backend (docs/providers.md): PKCE in the browser with a
 * loopback callback on the port the Codex CLI registered, or the pasted redirect URL when the browser
 * runs elsewhere, or a device code. The access token is a JWT naming the ChatGPT account the requests
 * are billed to.
 */
import type { AuthInteraction, LoginOptions, OAuthCredential } from "../../types/auth.js";
import { pollDeviceCode } from "./device-code-poll.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { authorizationQuery, createPkce, createState } from "./pkce.js";
import { exchangeAuthorizationCode, oauthRequest, requireNumber, requireString } from "./token-request.js";

const PROVIDER = "OpenAI";
const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const AUTHORIZE_URL = "https://auth.openai.com/oauth/authorize";
const TOKEN_URL = "https://auth.openai.com/oauth/token";
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const SCOPE = "openid profile email offline_access";
const DEVICE_USER_CODE_URL = "https://auth.openai.com/api/accounts/deviceauth/usercode";
const DEVICE_TOKEN_URL = "https://auth.openai.com/api/accounts/deviceauth/token";
const DEVICE_VERIFICATION_URI = "https://auth.openai.com/codex/device";
const DEVICE_REDIRECT_URI = "https://auth.openai.com/deviceauth/callback";
const DEVICE_CODE_TIMEOUT_SECONDS = 15 * 60;
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
		form: true,
		signal,
	});
	return credentialFrom(json);
}

/**
 * ChatGPT's own device login: a user code to confirm at auth.openai.com; polling answers 403/404 until
 * then, and finally an authorization code with its PKCE verifier for the usual exchange.
 */
async function deviceLogin(interaction: AuthInteraction): Promise<OAuthCredential> {
	const signal = interaction.signal;
	const device = await oauthRequest({
		provider: PROVIDER,
		url: oauthEndpoint(DEVICE_USER_CODE_URL),
		body: { client_id: CLIENT_ID },
		...(signal ? { signal } : {}),
	});
	const deviceAuthId = requireString(device, "device_auth_id", PROVIDER);
	const userCode = requireString(device, "user_code", PROVIDER);
	const interval = Number(device.interval);
	await interaction.notify({
		type: "device_code",
		code: userCode,
		url: DEVICE_VERIFICATION_URI,
		instructions: "Open the address and enter this code",
	});
	const approved = await pollDeviceCode<{ code: string; verifier: string }>({
		provider: PROVIDER,
		intervalSeconds: Number.isFinite(interval) && interval >= 0 ? interval : 5,
		expiresInSeconds: DEVICE_CODE_TIMEOUT_SECONDS,
		...(signal ? { signal } : {}),
		poll: async () => {
			const response = await fetch(oauthEndpoint(DEVICE_TOKEN_URL), {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({ device_auth_id: deviceAuthId, user_code: userCode }),
				...(signal ? { signal } : {}),
			});
			if (response.status === 403 || response.status === 404) return { status: "pending" };
			const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
			if (!response.ok)
				throw new Error(`${PROVIDER} device sign-in failed (${response.status}): ${JSON.stringify(json)}`);
			return {
				status: "done",
				value: {
					code: requireString(json, "authorization_code", PROVIDER),
					verifier: requireString(json, "code_verifier", PROVIDER),
				},
			};
		},
	});
	return exchangeCode(approved.code, approved.verifier, DEVICE_REDIRECT_URI, signal);
}

export async function login(interaction: AuthInteraction, options?: LoginOptions): Promise<OAuthCredential> {
	const method = await interaction.prompt({
		type: "select",
		message: "How do you want to sign in to ChatGPT?",
		options: [
			{ value: "browser", label: "Browser (default)" },
			{ value: "device", label: "Device code (remote machine)" },
		],
	});
	return method === "device" ? deviceLogin(interaction) : browserLogin(interaction, options);
}

async function browserLogin(interaction: AuthInteraction, options?: LoginOptions): Promise<OAuthCredential> {
	const { browserAuthorization } = await import("./browser-authorization.js");
	const { verifier, challenge } = createPkce();
	const state = createState();
	const { code, redirectUri } = await browserAuthorization(interaction, {
		provider: PROVIDER,
		account: "ChatGPT",
		port: CALLBACK_PORT,
		path: CALLBACK_PATH,
		redirectHost: "localhost",
		state,
		authorizeUrl: (redirectUri) => {
			const params = authorizationQuery(
				{ clientId: CLIENT_ID, redirectUri, scope: SCOPE, challenge, state },
				{
					id_token_add_organizations: "true",
					codex_cli_simplified_flow: "true",
					originator: options?.agentName ?? "tau",
				},
			);
			return `${oauthEndpoint(AUTHORIZE_URL)}?${params}`;
		},
	});
	return exchangeCode(code, verifier, redirectUri, interaction.signal);
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
