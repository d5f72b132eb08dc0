import type { Provider } from "../../types/provider.js";
import { OPENROUTER_CATALOG } from "../data/openrouter.js";
import { anthropicMessagesApi } from "../lazy-apis/anthropic-messages.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";
import { catalogProvider } from "./catalog-provider.js";

export function openrouterProvider(): Provider {
	return catalogProvider({
		id: "openrouter",
		name: "OpenRouter",
		baseUrl: "https://openrouter.ai/api/v1",
		catalog: OPENROUTER_CATALOG,
		api: { "openai-completions": openAICompletionsApi(), "anthropic-messages": anthropicMessagesApi() },
		envVars: ["OPENROUTER_API_KEY"],
	});
}

export {
	OPENROUTER_CATALOG,
	OPENROUTER_CLASSIFIER_MODELS,
	OPENROUTER_IMAGE_MODELS,
	OPENROUTER_MODELS,
} from "../data/openrouter.js";
