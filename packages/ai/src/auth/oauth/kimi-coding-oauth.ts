import { standardDeviceLogin } from "./standard-device-login.js";

/** Kimi Code subscription sign-in (docs/providers.md); requests carry the access token as a bearer header. */
export const { login, refresh, toAuth } = standardDeviceLogin({
	provider: "Kimi Code",
	clientId: "17e5f671-d194-4dfb-9706-5516cb48c098",
	deviceUrl: "https://auth.kimi.com/api/oauth/device_authorization",
	tokenUrl: "https://auth.kimi.com/api/oauth/token",
	expiryMarginMs: 0,
	toAuth: (credential) => ({ headers: { Authorization: `Bearer ${credential.access}` } }),
});
