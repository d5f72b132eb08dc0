/**
 * The Radius sign-in (docs/providers.md "Radius"): in the browser (PKCE, with the authorization address
 * the gateway names at `/v1/oauth`) or with a device code for a browser on another machine. Token,
 * device and refresh requests go to the gateway itself; the access token is the key of its API.
 */
import type { AuthInteraction, OAuthAuth, OAuthCredential } from "../../types/auth.js";
import { browserAuthorization } from "./browser-authorization.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { authorizationQuery, createPkce, createState } from "./pkce.js";
import { deviceTokenResponse } from "./standard-device-login.js";
import { exchangeAuthorizationCode, oauthRequest, requireNumber, requireString } from "./token-request.js";

const CLIENT_ID = "pi-gateway";
const SCOPE = "gateway offline_access";
/** The loopback address the gateway accepts as redirect (Pi's registration). */
const CALLBACK_PORT = 1456;
const CALLBACK_PATH = "/oauth/callback";
/** Subtracted from the token lifetime so a request never starts with a dying token. */
const EXPIRY_MARGIN_MS = 60_000;

const BROWSER = "browser";
const DEVICE_CODE = "device-code";

/** The Radius credential as Pi stores it in auth.json: the tokens, their expiry and the granted scope. */
function credentialFrom(provider: string, json: Record<string, unknown>): OAuthCredential {
	return {
		type: "oauth",
		access: requireString(json, "access_token", provider),
		refresh: requireString(json, "refresh_token", provider),
		expires: Date.now() + requireNumber(json, "expires_in", provider) * 1000 - EXPIRY_MARGIN_MS,
		...(typeof json.scope === "string" ? { scope: json.scope } : {}),
	};
}

/** The interactive authorization address the gateway publishes; only http(s) addresses are opened. */
async function authorizationEndpoint(provider: string, gateway: string, signal?: AbortSignal): Promise<string> {
	const discovery = await oauthRequest({
		provider,
		url: oauthEndpoint(`${gateway}/v1/oauth`),
		method: "GET",
		...(signal ? { signal } : {}),
	});
	const endpoint = discovery.authorizationEndpoint;
	if (typeof endpoint !== "string" || !URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
		throw new Error(`${provider} gateway ${gateway} published no usable authorization address`);
	}
	return endpoint;
}

async function browserLogin(provider: string, gateway: string, interaction: AuthInteraction) {
	const endpoint = await authorizationEndpoint(provider, gateway, interaction.signal);
	const { verifier, challenge } = createPkce();
	const state = createState();
	const authorization = await browserAuthorization(interaction, {
		provider,
		account: provider,
		port: CALLBACK_PORT,
		path: CALLBACK_PATH,
		redirectHost: "127.0.0.1",
		state,
		authorizeUrl: (redirectUri) => {
			const url = new URL(oauthEndpoint(endpoint));
			url.search = authorizationQuery(
				{ clientId: CLIENT_ID, redirectUri, scope: SCOPE, challenge, state },
				{ handoff: "url" },
			).toString();
			return url.toString();
		},
	});
	const json = await exchangeAuthorizationCode({
		provider,
		url: oauthEndpoint(`${gateway}/v1/oauth/token`),
		clientId: CLIENT_ID,
		code: authorization.code,
		verifier,
		redirectUri: authorization.redirectUri,
		form: true,
		signal: interaction.signal,
	});
	return credentialFrom(provider, json);
}

async function deviceLogin(provider: string, gateway: string, interaction: AuthInteraction) {
	const json = await deviceTokenResponse(
		{
			provider,
			clientId: CLIENT_ID,
			deviceUrl: `${gateway}/v1/oauth/device`,
			tokenUrl: `${gateway}/v1/oauth/token`,
			deviceFields: { scope: SCOPE },
		},
		interaction,
	);
	return credentialFrom(provider, json);
}

/** The sign-in of the gateway at `gateway` (an origin), named `provider` in prompts and messages. */
export function radiusOAuthFlow(provider: string, gateway: string): Omit<OAuthAuth, "name"> {
	return {
		async login(interaction) {
			const method = await interaction.prompt({
				type: "select",
				message: `Sign in to ${provider}:`,
				options: [
					{ value: BROWSER, label: "Sign in with browser (recommended)" },
					{ value: DEVICE_CODE, label: "Sign in with device code (when signing in from another device)" },
				],
			});
			if (method === BROWSER) return browserLogin(provider, gateway, interaction);
			if (method === DEVICE_CODE) return deviceLogin(provider, gateway, interaction);
			throw new Error(`Unknown ${provider} sign-in method: ${method}`);
		},
		async refresh(credential, signal) {
			const json = await oauthRequest({
				provider,
				url: oauthEndpoint(`${gateway}/v1/oauth/token`),
				form: true,
				body: { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credential.refresh },
				unauthorizedIsRejection: true,
				signal,
			});
			return credentialFrom(provider, json);
		},
		toAuth: async (credential) => ({ apiKey: credential.access }),
	};
}
