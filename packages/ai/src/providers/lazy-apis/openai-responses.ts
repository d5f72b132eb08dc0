import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The openai-responses adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function openAIResponsesApi(): ProviderStreams {
	return lazyApi(() => import("../../api/openai-responses/index.js"));
}
