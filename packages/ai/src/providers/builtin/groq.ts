import type { Provider } from "../../types/provider.js";
import { GROQ_CATALOG } from "../data/groq.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";
import { catalogProvider } from "./catalog-provider.js";

export function groqProvider(): Provider {
	return catalogProvider({
		id: "groq",
		name: "Groq",
		baseUrl: "https://api.groq.com/openai/v1",
		catalog: GROQ_CATALOG,
		api: openAICompletionsApi(),
		envVars: ["GROQ_API_KEY"],
	});
}

export { GROQ_CATALOG, GROQ_CLASSIFIER_MODELS, GROQ_IMAGE_MODELS, GROQ_MODELS } from "../data/groq.js";
