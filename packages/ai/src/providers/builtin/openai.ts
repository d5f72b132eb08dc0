import type { Provider } from "../../types/provider.js";
import { OPENAI_CATALOG } from "../data/openai.js";
import { openAIResponsesApi } from "../lazy-apis/openai-responses.js";
import { catalogProvider } from "./catalog-provider.js";

export function openaiProvider(): Provider {
	return catalogProvider({
		id: "openai",
		name: "OpenAI",
		baseUrl: "https://api.openai.com/v1",
		catalog: OPENAI_CATALOG,
		api: openAIResponsesApi(),
		envVars: ["OPENAI_API_KEY"],
	});
}

export { OPENAI_CATALOG, OPENAI_CLASSIFIER_MODELS, OPENAI_IMAGE_MODELS, OPENAI_MODELS } from "../data/openai.js";
