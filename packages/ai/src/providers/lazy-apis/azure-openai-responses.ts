import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The azure-openai-responses adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function azureOpenAIResponsesApi(): ProviderStreams {
	return lazyApi(() => import("../../api/azure-openai-responses/index.js"));
}
