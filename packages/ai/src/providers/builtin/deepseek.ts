import type { Provider } from "../../types/provider.js";
import { DEEPSEEK_CATALOG } from "../data/deepseek.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";
import { catalogProvider } from "./catalog-provider.js";

export function deepseekProvider(): Provider {
	return catalogProvider({
		id: "deepseek",
		name: "DeepSeek",
		baseUrl: "https://api.deepseek.com",
		catalog: DEEPSEEK_CATALOG,
		api: openAICompletionsApi(),
		envVars: ["DEEPSEEK_API_KEY"],
	});
}

export {
	DEEPSEEK_CATALOG,
	DEEPSEEK_CLASSIFIER_MODELS,
	DEEPSEEK_IMAGE_MODELS,
	DEEPSEEK_MODELS,
} from "../data/deepseek.js";
