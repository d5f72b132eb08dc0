/**
 * Sign-ins that follow RFC 8628 as written (docs/providers.md): a device authorization request, the
 * code shown to the user, polling the token endpoint, and `refresh_token` grants afterwards.
 * xAI and Kimi Code sign in this way; Meta uses the device part.
 */
import type { AuthInteraction, ModelAuth, OAuthAuth, OAuthCredential } from "../../types/auth.js";
import { pollDeviceCode } from "./device-code-poll.js";
import { oauthEndpoint } from "./oauth-endpoint.js";
import { oauthRequest, requireString } from "./token-request.js";

export interface DeviceEndpoints {
	provider: string;
	clientId: string;
	deviceUrl: string;
	tokenUrl: string;
	/** Extra fields of the device authorization request (scope, referrer). */
	deviceFields?: Record<string, string>;
}

export interface StandardDeviceLogin extends DeviceEndpoints {
	/** Subtracted from the token lifetime so a request never starts with a dying token. */
	expiryMarginMs: number;
	toAuth(credential: OAuthCredential): ModelAuth;
}

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const DEFAULT_LIFETIME_SECONDS = 3600;
const DEFAULT_DEVICE_EXPIRY_SECONDS = 15 * 60;

function credentialFrom(
	flow: StandardDeviceLogin,
	json: Record<string, unknown>,
	previousRefresh?: string,
): OAuthCredential {
	const lifetime =
		typeof json.expires_in === "number" && json.expires_in > 0 ? json.expires_in : DEFAULT_LIFETIME_SECONDS;
	// A refresh that does not rotate the refresh token may omit it.
	const refresh =
		json.refresh_token === undefined && previousRefresh
			? previousRefresh
			: requireString(json, "refresh_token", flow.provider);
	return {
		type: "oauth",
		access: requireString(json, "access_token", flow.provider),
		refresh,
		expires: Date.now() + lifetime * 1000 - flow.expiryMarginMs,
	};
}

/** Shows the device code and polls until the user approves; resolves with the token response. */
export async function deviceTokenResponse(
	flow: DeviceEndpoints,
	interaction: AuthInteraction,
): Promise<Record<string, unknown>> {
	const signal = interaction.signal;
	const device = await oauthRequest({
		provider: flow.provider,
		url: oauthEndpoint(flow.deviceUrl),
		form: true,
		body: { client_id: flow.clientId, ...flow.deviceFields },
		...(signal ? { signal } : {}),
	});
	const deviceCode = requireString(device, "device_code", flow.provider);
	const complete = typeof device.verification_uri_complete === "string" ? device.verification_uri_complete : undefined;
	const url = complete ?? requireString(device, "verification_uri", flow.provider);
	if (!/^https:\/\//.test(url)) throw new Error(`${flow.provider} sent an unusable verification address`);
	await interaction.notify({
		type: "device_code",
		code: requireString(device, "user_code", flow.provider),
		url,
		instructions: "Open the address and confirm this code",
	});
	return pollDeviceCode<Record<string, unknown>>({
		provider: flow.provider,
		// RFC 8628 §3.2: 5 seconds when the server names no interval.
		intervalSeconds: typeof device.interval === "number" && device.interval >= 0 ? device.interval : 5,
		expiresInSeconds: typeof device.expires_in === "number" ? device.expires_in : DEFAULT_DEVICE_EXPIRY_SECONDS,
		...(signal ? { signal } : {}),
		poll: async () => {
			const answer = await oauthRequest({
				provider: flow.provider,
				url: oauthEndpoint(flow.tokenUrl),
				form: true,
				body: { grant_type: DEVICE_GRANT, client_id: flow.clientId, device_code: deviceCode },
				devicePoll: true,
				...(signal ? { signal } : {}),
			});
			if (answer.error === "authorization_pending") return { status: "pending" };
			if (answer.error === "slow_down") {
				return {
					status: "slow_down",
					...(typeof answer.interval === "number" ? { intervalSeconds: answer.interval } : {}),
				};
			}
			return { status: "done", value: answer };
		},
	});
}

async function login(flow: StandardDeviceLogin, interaction: AuthInteraction): Promise<OAuthCredential> {
	return credentialFrom(flow, await deviceTokenResponse(flow, interaction));
}

async function refresh(flow: StandardDeviceLogin, credential: OAuthCredential, signal: AbortSignal) {
	const json = await oauthRequest({
		provider: flow.provider,
		url: oauthEndpoint(flow.tokenUrl),
		form: true,
		body: { grant_type: "refresh_token", client_id: flow.clientId, refresh_token: credential.refresh },
		unauthorizedIsRejection: true,
		signal,
	});
	return { ...credential, ...credentialFrom(flow, json, credential.refresh) };
}

/** The `login`/`refresh`/`toAuth` of one RFC 8628 provider. */
export function standardDeviceLogin(flow: StandardDeviceLogin): Omit<OAuthAuth, "name"> {
	return {
		login: (interaction) => login(flow, interaction),
		refresh: (credential, signal) => refresh(flow, credential, signal),
		toAuth: async (credential) => flow.toAuth(credential),
	};
}
