import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The mistral-conversations adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function mistralConversationsApi(): ProviderStreams {
	return lazyApi(() => import("../../api/mistral-conversations/index.js"));
}
