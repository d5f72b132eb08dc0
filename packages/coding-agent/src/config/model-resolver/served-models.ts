import type { ModelRuntime } from "../model-runtime/model-runtime.js";
import { isThinkingLevel, splitProviderPrefix } from "./model-reference.js";

/** How long `--model` waits for a server's model list before resolving without it. */
const DISCOVERY_TIMEOUT_MS = 10_000;

/** The provider and model id a `--model` reference names, when it names a provider. */
function namedModel(
	reference: string,
	providerOption: string | undefined,
	providerIds: readonly string[],
): { provider: string; id: string } | undefined {
	if (providerOption) {
		const provider = providerIds.find((id) => id.toLowerCase() === providerOption.toLowerCase());
		return provider ? { provider, id: reference } : undefined;
	}
	const prefix = splitProviderPrefix(reference, providerIds);
	return prefix ? { provider: prefix.provider, id: prefix.rest } : undefined;
}

/**
 * `--model <provider>/<id>` for a provider that lists its models from its server (Ollama, llama.cpp, vLLM,
 * LM Studio: docs/models.md) that does not know `<id>` yet: the server's list is read first, so a model it
 * serves resolves like a catalog model. Returns a warning when the server could not be asked.
 */
export async function discoverServedModel(
	runtime: ModelRuntime,
	reference: string,
	providerOption?: string,
): Promise<string | undefined> {
	const providers = runtime.models.getProviders();
	const named = namedModel(
		reference,
		providerOption,
		providers.map((provider) => provider.id),
	);
	const provider = named ? runtime.models.getProvider(named.provider) : undefined;
	if (!named || !provider?.refreshModels) return undefined;
	const colon = named.id.lastIndexOf(":");
	const withoutLevel = colon > 0 && isThinkingLevel(named.id.slice(colon + 1)) ? named.id.slice(0, colon) : named.id;
	if (runtime.find(named.provider, named.id) || runtime.find(named.provider, withoutLevel)) return undefined;
	const result = await runtime.discoverServedModels(named.provider, AbortSignal.timeout(DISCOVERY_TIMEOUT_MS));
	const error = result.errors.get(named.provider);
	return error ? `Could not list the models of ${provider.name}: ${error.message}` : undefined;
}
