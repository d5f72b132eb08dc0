import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The openai-codex-responses adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function openAICodexResponsesApi(): ProviderStreams {
	return lazyApi(() => import("../../api/openai-codex-responses/index.js"));
}
