import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

/** The google-vertex adapter as `ProviderStreams` whose module (and SDK) loads on the first request. */
export function googleVertexApi(): ProviderStreams {
	return lazyApi(() => import("../../api/google-vertex/index.js"));
}
