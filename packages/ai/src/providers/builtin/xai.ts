import type { Provider } from "../../types/provider.js";
import { XAI_CATALOG } from "../data/xai.js";
import { openAIResponsesApi } from "../lazy-apis/openai-responses.js";
import { catalogProvider } from "./catalog-provider.js";

export function xaiProvider(): Provider {
	return catalogProvider({
		id: "xai",
		name: "xAI",
		baseUrl: "https://api.x.ai/v1",
		catalog: XAI_CATALOG,
		api: openAIResponsesApi(),
		envVars: ["XAI_API_KEY"],
	});
}

export { XAI_CATALOG, XAI_CLASSIFIER_MODELS, XAI_IMAGE_MODELS, XAI_MODELS } from "../data/xai.js";
