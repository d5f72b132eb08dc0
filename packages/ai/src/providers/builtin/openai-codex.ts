import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/**
 * The ChatGPT-subscription backend. Its requests carry the account's access token as the bearer key
 * (the account id is read from the token, or from a `chatgpt-account-id` header the auth supplies);
 * until a sign-in flow stores one, a pasted access token is the way in.
 */
export function openaiCodexProvider(): Provider {
	return catalogProvider({
		id: "openai-codex",
		name: "OpenAI Codex",
		baseUrl: "https://chatgpt.com/backend-api",
		auth: { apiKey: envApiKeyAuth("ChatGPT access token", []) },
	});
}
