import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The pi-messages adapter as `ProviderStreams`, whose module loads on the first request. */
export function piMessagesApi(): ProviderStreams {
	return lazyApi(() => import("../../api/pi-messages/index.js"));
}
