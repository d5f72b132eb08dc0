import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The google-generative-ai adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function googleGenerativeAIApi(): ProviderStreams {
	return lazyApi(() => import("../../api/google-generative-ai/index.js"));
}
