import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The openai-completions adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function openAICompletionsApi(): ProviderStreams {
	return lazyApi(() => import("../../api/openai-completions/index.js"));
}
