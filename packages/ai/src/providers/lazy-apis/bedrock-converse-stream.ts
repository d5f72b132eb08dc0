import type { ProviderStreams } from "../../types/provider.js";
import { lazyApi } from "../lazy-api.js";

let loadBedrock: () => Promise<ProviderStreams> = () => import("../../api/bedrock-converse-stream/index.js");

/**
 * Replaces how the bedrock-converse-stream adapter is loaded (pi's hook for bundles that cannot follow the
 * dynamic import): later requests of every `bedrockConverseStreamApi()` use `load`.
 */
export function setBedrockProviderLoader(load: () => Promise<ProviderStreams>): void {
	loadBedrock = load;
}

/** Like `setBedrockProviderLoader`, with an implementation already in hand. */
export function setBedrockProviderModule(module: ProviderStreams): void {
	loadBedrock = async () => module;
}

/** The bedrock-converse-stream adapter as `ProviderStreams` whose module (and AWS SDK) loads on the first request. */
export function bedrockConverseStreamApi(): ProviderStreams {
	return lazyApi(() => loadBedrock());
}
