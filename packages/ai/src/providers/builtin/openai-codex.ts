import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import { openaiCodexLogin } from "../../auth/oauth/subscription-logins.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/**
 * The ChatGPT-subscription backend. Its requests carry the account's access token as the bearer key
 * (the account id is read from the token, or from a `chatgpt-account-id` header the auth supplies):
 * from a ChatGPT sign-in, or a pasted access token.
 */
export function openaiCodexProvider(): Provider {
	return catalogProvider({
		id: "openai-codex",
		name: "OpenAI Codex",
		baseUrl: "https://chatgpt.com/backend-api",
		auth: { apiKey: envApiKeyAuth("ChatGPT access token", []), oauth: openaiCodexLogin() },
	});
}
