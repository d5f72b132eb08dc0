import { catalogModels } from "../../models/catalog.js";
import { getModelType } from "../../models/model-helpers.js";
import { createModels } from "../../models/models-collection.js";
import type { AnyModel, Api, ClassifierModel, ImageModel, Model } from "../../types/model.js";
import type { CreateModelsOptions, MutableModels, Provider } from "../../types/provider.js";
import { ANTHROPIC_CATALOG } from "../data/anthropic.js";
import { DEEPSEEK_CATALOG } from "../data/deepseek.js";

import { GOOGLE_CATALOG } from "../data/google.js";
import { GROQ_CATALOG } from "../data/groq.js";
import { OPENAI_CATALOG } from "../data/openai.js";
import { OPENROUTER_CATALOG } from "../data/openrouter.js";
import { XAI_CATALOG } from "../data/xai.js";
import { anthropicProvider } from "./anthropic.js";
import { deepseekProvider } from "./deepseek.js";
import { googleProvider } from "./google.js";
import { groqProvider } from "./groq.js";
import { llamaCppProvider, lmStudioProvider, ollamaProvider, vllmProvider } from "./local.js";
import { openaiProvider } from "./openai.js";
import { openrouterProvider } from "./openrouter.js";
import { xaiProvider } from "./xai.js";

export { DEFAULT_MODEL_PER_PROVIDER, defaultModelIdFor } from "../data/default-models.js";

/** Every built-in provider, freshly constructed. */
export function builtinProviders(): Provider[] {
	return [
		anthropicProvider(),
		openaiProvider(),
		openrouterProvider(),
		groqProvider(),
		xaiProvider(),
		deepseekProvider(),
		googleProvider(),
		ollamaProvider(),
		llamaCppProvider(),
		lmStudioProvider(),
		vllmProvider(),
	];
}

/** `createModels(options)` with every built-in provider registered. */
export function builtinModels(options?: CreateModelsOptions): MutableModels {
	const models = createModels(options);
	for (const provider of builtinProviders()) models.setProvider(provider);
	return models;
}

const STATIC_CATALOGS: Record<string, readonly AnyModel[]> = {
	anthropic: catalogModels(ANTHROPIC_CATALOG),
	openai: catalogModels(OPENAI_CATALOG),
	openrouter: catalogModels(OPENROUTER_CATALOG),
	groq: catalogModels(GROQ_CATALOG),
	xai: catalogModels(XAI_CATALOG),
	deepseek: catalogModels(DEEPSEEK_CATALOG),
	google: catalogModels(GOOGLE_CATALOG),
};

/** Ids of the providers that ship a static catalog. */
export function getBuiltinProviders(): string[] {
	return Object.keys(STATIC_CATALOGS);
}

/** Every shipped model of a provider, of every type (no network). */
export function getAllBuiltinModels(provider: string): readonly AnyModel[] {
	return STATIC_CATALOGS[provider] ?? [];
}

export function getBuiltinModels(provider: string): Model<Api>[] {
	return getAllBuiltinModels(provider).filter((model): model is Model<Api> => getModelType(model) === "chat");
}

export function getBuiltinModel(provider: string, id: string): Model<Api> | undefined {
	return getBuiltinModels(provider).find((model) => model.id === id);
}

export function getBuiltinImageModels(provider: string): ImageModel[] {
	return getAllBuiltinModels(provider).filter((model): model is ImageModel => getModelType(model) === "image");
}

export function getBuiltinImageModel(provider: string, id: string): ImageModel | undefined {
	return getBuiltinImageModels(provider).find((model) => model.id === id);
}

export function getBuiltinClassifierModels(provider: string): ClassifierModel[] {
	return getAllBuiltinModels(provider).filter(
		(model): model is ClassifierModel => getModelType(model) === "classifier",
	);
}

export function getBuiltinClassifierModel(provider: string, id: string): ClassifierModel | undefined {
	return getBuiltinClassifierModels(provider).find((model) => model.id === id);
}

/** Synchronous catalog read, pi's `getModel(provider, id)`. */
export const getModel = getBuiltinModel;
/** Synchronous catalog read, pi's `getModels(provider)`. */
export const getModels = getBuiltinModels;
