import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The anthropic-messages adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function anthropicMessagesApi(): ProviderStreams {
	return lazyApi(() => import("../../api/anthropic-messages/index.js"));
}
