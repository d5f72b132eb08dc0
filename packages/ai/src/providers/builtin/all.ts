import { getModelType } from "../../models/model-helpers.js";
import { createModels } from "../../models/models-collection.js";
import type { AnyModel, Api, ClassifierModel, ImageModel, Model } from "../../types/model.js";
import type { CreateModelsOptions, MutableModels, Provider } from "../../types/provider.js";
import { shippedModels } from "../catalog/shipped-catalog.js";
import { CATALOG_PROVIDER_IDS, CATALOG_SOURCE } from "../data/catalog-index.js";
import { amazonBedrockProvider } from "./amazon-bedrock.js";
import { anthropicProvider } from "./anthropic.js";
import { azureProvider } from "./azure.js";
import { cloudflareAIGatewayProvider, cloudflareWorkersAIProvider } from "./cloudflare.js";
import { githubCopilotProvider } from "./github-copilot.js";
import { googleVertexProvider } from "./google-vertex.js";
import { hostedProvider } from "./hosted.js";
import { llamaCppProvider, lmStudioProvider, ollamaProvider, vllmProvider } from "./local.js";
import { openaiCodexProvider } from "./openai-codex.js";
import { radiusProvider } from "./radius.js";

export { DEFAULT_MODEL_PER_PROVIDER, defaultModelIdFor } from "../data/default-models.js";
/** A Radius gateway as a provider: the built-in `radius`, or a gateway named in models.json (`"oauth": "radius"`). */
export { type RadiusProviderOptions, radiusProvider } from "./radius.js";

/** Providers whose behaviour goes beyond an API key over the shipped catalog. */
const SPECIAL_PROVIDERS: Record<string, () => Provider> = {
	"amazon-bedrock": amazonBedrockProvider,
	anthropic: anthropicProvider,
	azure: azureProvider,
	"cloudflare-ai-gateway": cloudflareAIGatewayProvider,
	"cloudflare-workers-ai": cloudflareWorkersAIProvider,
	"github-copilot": githubCopilotProvider,
	"google-vertex": googleVertexProvider,
	"openai-codex": openaiCodexProvider,
	radius: () => radiusProvider(),
};

/**
 * Every built-in provider, freshly constructed: one per shipped catalog (in id order), then the local
 * servers. Constructing reads no catalog; each provider reads its own on first use.
 */
export function builtinProviders(): Provider[] {
	const catalogProviders = CATALOG_PROVIDER_IDS.map((id) => (SPECIAL_PROVIDERS[id] ?? (() => hostedProvider(id)))());
	return [...catalogProviders, ollamaProvider(), llamaCppProvider(), lmStudioProvider(), vllmProvider()];
}

/** `createModels(options)` with every built-in provider registered. */
export function builtinModels(options?: CreateModelsOptions): MutableModels {
	const models = createModels(options);
	for (const provider of builtinProviders()) models.setProvider(provider);
	return models;
}

/** Ids of the providers that ship a static catalog. */
export function getBuiltinProviders(): string[] {
	return [...CATALOG_PROVIDER_IDS];
}

/** When the shipped model data was generated (ms since the epoch). */
export function getBuiltinModelDataGeneratedAt(): number | undefined {
	const generatedAt = Date.parse(CATALOG_SOURCE.generatedAt);
	return Number.isNaN(generatedAt) ? undefined : generatedAt;
}

/** Every shipped model of a provider, of every type (no network). */
export function getAllBuiltinModels(provider: string): readonly AnyModel[] {
	return shippedModels(provider);
}

/** The built-in chat models of a provider, from the shipped catalog (no network). */
export function getBuiltinModels(provider: string): Model<Api>[] {
	return getAllBuiltinModels(provider).filter((model): model is Model<Api> => getModelType(model) === "chat");
}

/** A built-in chat model by provider and id, or undefined. */
export function getBuiltinModel(provider: string, id: string): Model<Api> | undefined {
	return getBuiltinModels(provider).find((model) => model.id === id);
}

/** The built-in image generation models of a provider. */
export function getBuiltinImageModels(provider: string): ImageModel[] {
	return getAllBuiltinModels(provider).filter((model): model is ImageModel => getModelType(model) === "image");
}

/** A built-in image generation model by provider and id, or undefined. */
export function getBuiltinImageModel(provider: string, id: string): ImageModel | undefined {
	return getBuiltinImageModels(provider).find((model) => model.id === id);
}

/** The built-in classifier models of a provider. */
export function getBuiltinClassifierModels(provider: string): ClassifierModel[] {
	return getAllBuiltinModels(provider).filter(
		(model): model is ClassifierModel => getModelType(model) === "classifier",
	);
}

/** A built-in classifier model by provider and id, or undefined. */
export function getBuiltinClassifierModel(provider: string, id: string): ClassifierModel | undefined {
	return getBuiltinClassifierModels(provider).find((model) => model.id === id);
}

/** Synchronous catalog read, pi's `getModel(provider, id)`. */
export const getModel = getBuiltinModel;
/** Synchronous catalog read, pi's `getModels(provider)`. */
export const getModels = getBuiltinModels;
