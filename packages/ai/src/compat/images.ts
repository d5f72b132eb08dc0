import { getBuiltinImageModel, getBuiltinImageModels, getBuiltinProviders } from "../providers/builtin/all.js";
import { openRouterImagesApi } from "../providers/lazy-apis/openrouter-images.js";
import type {
	AssistantImages,
	ImagesContext,
	ImagesFunction,
	ImagesOptions,
	ProviderImagesOptions,
} from "../types/media.js";
import type { ImageApi, ImageModel } from "../types/model.js";

/**
 * pi-ai's global image generation (docs/ai.md "Image generation"): `generateImages` dispatches on
 * `model.api` to the implementation registered here and takes the key from `options.apiKey` only.
 * `Models.generateImages()` resolves provider auth instead.
 */

export interface ImagesApiProvider<TApi extends ImageApi = ImageApi, TOptions extends ImagesOptions = ImagesOptions> {
	api: TApi;
	generateImages: ImagesFunction<TOptions>;
}

/** A registered implementation; it throws when handed a model of another API. */
export interface RegisteredImagesApiProvider {
	api: ImageApi;
	generateImages: ImagesFunction;
}

const registry = new Map<ImageApi, RegisteredImagesApiProvider>();

/** Registers (or replaces) the image generation implementation of an image API id. */
export function registerImagesApiProvider<TApi extends ImageApi, TOptions extends ImagesOptions>(
	provider: ImagesApiProvider<TApi, TOptions>,
	_sourceId?: string,
): void {
	const generate = provider.generateImages as ImagesFunction;
	registry.set(provider.api, {
		api: provider.api,
		generateImages: (model, context, options) => {
			if (model.api !== provider.api) throw new Error(`Mismatched api: ${model.api} expected ${provider.api}`);
			return generate(model, context, options);
		},
	});
}

/** The image generation implementation registered for an image API id, or undefined. */
export function getImagesApiProvider(api: ImageApi): RegisteredImagesApiProvider | undefined {
	return registry.get(api);
}

/** Image generation over OpenRouter, loading its SDK on the first request. */
export const generateImagesOpenRouter: ImagesFunction = openRouterImagesApi().generateImages;

/** Registers the shipped image generation implementations (OpenRouter images). */
export function registerBuiltInImagesApiProviders(): void {
	registerImagesApiProvider({ api: "openrouter-images", generateImages: generateImagesOpenRouter });
}

/** Generates images with the implementation registered for `model.api`; throws when there is none. */
export async function generateImages(
	model: ImageModel,
	context: ImagesContext,
	options?: ProviderImagesOptions,
): Promise<AssistantImages> {
	const provider = getImagesApiProvider(model.api);
	if (!provider) throw new Error(`No API provider registered for api: ${model.api}`);
	return provider.generateImages(model, context, options);
}

/** A shipped image model (no network). */
export function getImageModel(provider: string, modelId: string): ImageModel | undefined {
	return getBuiltinImageModel(provider, modelId);
}

/** The shipped image models of a provider. */
export function getImageModels(provider: string): ImageModel[] {
	return getBuiltinImageModels(provider);
}

/** The built-in providers that ship at least one image model. */
export function getImageProviders(): string[] {
	return getBuiltinProviders().filter((provider) => getBuiltinImageModels(provider).length > 0);
}

registerBuiltInImagesApiProviders();
