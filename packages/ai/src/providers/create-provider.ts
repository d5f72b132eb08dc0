import { failedClassification, failedImages, neverRejecting } from "../models/media-failures.js";
import { getModelType, hasKnownModelType, isModelType } from "../models/model-helpers.js";
import { ModelsError } from "../models/models-error.js";
import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import { lazyStream } from "../stream/lazy-stream.js";
import type { AnyModel, Api, Model } from "../types/model.js";
import type { CreateProviderOptions, Provider, ProviderStreams, RefreshModelsContext } from "../types/provider.js";

function isSingleImplementation(api: unknown): api is ProviderStreams {
	return typeof (api as ProviderStreams | undefined)?.stream === "function";
}

function hasEntries(map: object | undefined): boolean {
	return map !== undefined && Object.values(map).some((value) => value !== undefined);
}

/** Dynamic models replace baseline entries with the same effective type and id; new ones are appended. */
function overlay(baseline: readonly AnyModel[], dynamic: readonly AnyModel[]): AnyModel[] {
	const key = (model: AnyModel) => `${getModelType(model)}:${model.id}`;
	const replacements = new Map(dynamic.map((model) => [key(model), model]));
	const merged = baseline.map((model) => replacements.get(key(model)) ?? model);
	const baselineKeys = new Set(baseline.map(key));
	for (const model of dynamic) if (!baselineKeys.has(key(model))) merged.push(model);
	return merged;
}

function failingStream(model: Model<Api>, error: Error, signal: AbortSignal | undefined): AssistantMessageEventStream {
	return lazyStream(model, () => Promise.reject(error), undefined, signal);
}

/** The single assembly point of a provider: static catalog, optional dynamic models, implementations by api. */
export function createProvider<TApi extends Api = Api>(input: CreateProviderOptions<TApi>): Provider<TApi> {
	const single = isSingleImplementation(input.api) ? input.api : undefined;
	const byApi = single ? undefined : (input.api as Partial<Record<string, ProviderStreams>> | undefined);
	if (!single && !hasEntries(byApi) && !hasEntries(input.images) && !hasEntries(input.classifiers)) {
		throw new Error(`Provider ${input.id}: at least one of "api", "images", or "classifiers" is required.`);
	}
	const implementations = single ? [single] : Object.values(byApi ?? {}).filter((impl) => impl !== undefined);
	const implementationFor = (model: Model<Api>): ProviderStreams | Error =>
		single ??
		byApi?.[model.api] ??
		new ModelsError("stream", `Provider ${input.id} has no API implementation for "${model.api}"`);

	let baseline: readonly AnyModel[] | undefined;
	const baselineModels = () => {
		baseline ??= typeof input.models === "function" ? input.models() : input.models;
		return baseline;
	};
	let current: readonly AnyModel[] | undefined;
	const currentModels = () => {
		current ??= baselineModels();
		return current;
	};
	const chatModels = () => currentModels().filter((model): model is Model<TApi> => isModelType(model, "chat"));

	const provider: Provider<TApi> = {
		id: input.id,
		name: input.name ?? input.id,
		auth: input.auth,
		getModels: chatModels,
		getAllModels: currentModels,
		stream(model, context, options) {
			const impl = implementationFor(model);
			if (impl instanceof Error) return failingStream(model, impl, options?.signal);
			return impl.stream(model, context, options);
		},
		streamSimple(model, context, options) {
			const impl = implementationFor(model);
			if (impl instanceof Error) return failingStream(model, impl, options?.signal);
			return impl.streamSimple(model, context, options);
		},
	};
	if (input.baseUrl !== undefined) Object.assign(provider, { baseUrl: input.baseUrl });
	if (input.headers !== undefined) Object.assign(provider, { headers: input.headers });
	if (input.refreshModelsAuth !== undefined) Object.assign(provider, { refreshModelsAuth: input.refreshModelsAuth });
	if (input.filterModels) provider.filterModels = input.filterModels;
	if (input.filterAllModels) provider.filterAllModels = input.filterAllModels;

	const { fetchModels } = input;
	if (fetchModels) {
		provider.refreshModels = async (ctx: RefreshModelsContext) => {
			const replaceWith = (models: readonly AnyModel[]) => () => {
				current = overlay(baselineModels(), models.filter(hasKnownModelType));
			};
			if (ctx.stored) {
				const restored = ctx.stored.models.filter((model) => model.provider === input.id);
				if (!(await ctx.publish({ update: replaceWith(restored) }))) return;
			}
			if (!ctx.allowNetwork || ctx.signal.aborted) return;
			const fetched = (await fetchModels(ctx)).filter(hasKnownModelType);
			await ctx.publish({ persist: { models: [...fetched], checkedAt: Date.now() }, update: replaceWith(fetched) });
		};
	}

	if (implementations.some((impl) => impl.fetchDeferred)) {
		provider.fetchDeferred = (model, handle, options) => {
			const impl = implementationFor(model);
			if (impl instanceof Error) return failingStream(model, impl, options?.signal);
			if (!impl.fetchDeferred) {
				const error = new ModelsError("stream", `Provider ${input.id} has no deferred support for "${model.api}"`);
				return failingStream(model, error, options?.signal);
			}
			return impl.fetchDeferred(model, handle, options);
		};
	}
	if (implementations.some((impl) => impl.cancelDeferred)) {
		provider.cancelDeferred = async (model, handle, options) => {
			const impl = implementationFor(model);
			if (!(impl instanceof Error)) await impl.cancelDeferred?.(model, handle, options);
		};
	}
	const { images, classifiers } = input;
	if (hasEntries(images)) {
		provider.generateImages = (model, context, options) =>
			neverRejecting(
				async () => {
					const impl = images?.[model.api];
					if (!impl)
						throw new ModelsError(
							"stream",
							`Provider ${input.id} has no image implementation for "${model.api}"`,
						);
					return impl.generateImages(model, context, options);
				},
				(error) => failedImages(model, error, options?.signal),
			);
	}
	if (hasEntries(classifiers)) {
		provider.classify = (model, context, options) =>
			neverRejecting(
				async () => {
					const impl = classifiers?.[model.api];
					if (!impl) {
						throw new ModelsError(
							"stream",
							`Provider ${input.id} has no classifier implementation for "${model.api}"`,
						);
					}
					return impl.classify(model, context, options);
				},
				(error) => failedClassification(model, error, options?.signal),
			);
	}
	return provider;
}
