import type { Provider } from "../../types/provider.js";
import { GOOGLE_CATALOG } from "../data/google.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";
import { catalogProvider } from "./catalog-provider.js";

export function googleProvider(): Provider {
	return catalogProvider({
		id: "google",
		name: "Google",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
		catalog: GOOGLE_CATALOG,
		api: openAICompletionsApi(),
		envVars: ["GEMINI_API_KEY"],
	});
}

export { GOOGLE_CATALOG, GOOGLE_CLASSIFIER_MODELS, GOOGLE_IMAGE_MODELS, GOOGLE_MODELS } from "../data/google.js";
