import { AMBIENT_CREDENTIALS_MARKER, getEnvApiKey } from "../auth/env-api-keys.js";
import { builtinModels } from "../providers/builtin/all.js";
import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import { normalizeContext } from "../system-messages/normalize-context.js";
import type { Context } from "../types/context.js";
import type { AssistantMessage } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";
import type { SimpleStreamOptions, StreamOptions } from "../types/options.js";
import type { MutableModels } from "../types/provider.js";
import { getApiProvider, isBuiltInApiProvider, type RegisteredApiProvider } from "./api-providers.js";

/**
 * pi-ai's global request functions (docs/ai.md "The pi-ai compatibility entry"). A model of a built-in
 * provider whose API nobody overrode goes through a built-in `Models`, which resolves its key from the
 * environment as the provider defines it; any other model goes to the implementation registered for its
 * API, with the provider's environment key added when the caller passed none.
 */

/** Stream options plus whatever an API-specific implementation understands. */
export type ProviderStreamOptions = StreamOptions & Record<string, unknown>;

let compatModels: MutableModels | undefined;

/** The built-in `Models` when `model` belongs to a built-in provider served by an untouched built-in API. */
function builtinModelsFor(model: Model<Api>): MutableModels | undefined {
	if (!isBuiltInApiProvider(model.api)) return undefined;
	compatModels ??= builtinModels();
	const provider = compatModels.getProvider(model.provider);
	return provider?.getModels().some((candidate) => candidate.api === model.api) ? compatModels : undefined;
}

function withEnvApiKey<T extends StreamOptions>(model: Model<Api>, options: T | undefined): T | undefined {
	if (typeof options?.apiKey === "string" && options.apiKey.trim().length > 0) return options;
	const apiKey = getEnvApiKey(model.provider, options?.env);
	if (!apiKey || apiKey === AMBIENT_CREDENTIALS_MARKER) return options;
	return { ...options, apiKey } as T;
}

/** The registered implementation of `api`; throws (as pi does) when there is none. */
function requireApiProvider(api: Api): RegisteredApiProvider {
	const provider = getApiProvider(api);
	if (!provider) throw new Error(`No API provider registered for api: ${api}`);
	return provider;
}

/**
 * Streams a model's answer with that API's own options; built-in models read keys from the environment and stored
 * credentials.
 */
export function stream<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions,
): AssistantMessageEventStream {
	const transcript = normalizeContext(context);
	const models = builtinModelsFor(model);
	if (models) return models.stream(model as Model<Api>, transcript, options);
	return requireApiProvider(model.api).stream(model, transcript, withEnvApiKey(model, options));
}

/** Runs `stream` to the end and returns the final assistant message. */
export function complete<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions,
): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

/**
 * Streams a model's answer with the portable `SimpleStreamOptions`; built-in models read keys from the environment and
 * stored credentials.
 */
export function streamSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): AssistantMessageEventStream {
	const transcript = normalizeContext(context);
	const models = builtinModelsFor(model);
	if (models) return models.streamSimple(model, transcript, options);
	return requireApiProvider(model.api).streamSimple(model, transcript, withEnvApiKey(model, options));
}

/** Runs `streamSimple` to the end and returns the final assistant message. */
export function completeSimple<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
	return streamSimple(model, context, options).result();
}
