import { standardDeviceLogin } from "./standard-device-login.js";

/** SuperGrok / X Premium sign-in (docs/providers.md); the access token is the API key. */
export const { login, refresh, toAuth } = standardDeviceLogin({
	provider: "xAI",
	clientId: "b1a00492-073a-47ea-816f-4c329264a828",
	deviceUrl: "https://auth.x.ai/oauth2/device/code",
	tokenUrl: "https://auth.x.ai/oauth2/token",
	deviceFields: { scope: "openid profile email offline_access grok-cli:access api:access", referrer: "tau" },
	expiryMarginMs: 5 * 60_000,
	toAuth: (credential) => ({ apiKey: credential.access }),
});
