import { createFauxCore, type FauxCore, type FauxProviderOptions } from "../faux/faux-core.js";
import { builtinApi, builtinApiIds } from "../providers/api-registry.js";
import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import type { TranscriptContext } from "../types/context.js";
import type { Api, Model } from "../types/model.js";
import type { SimpleStreamOptions, StreamOptions } from "../types/options.js";
import type { StreamFunction } from "../types/provider.js";

/**
 * pi-ai's process-wide API registry (docs/ai.md "The pi-ai compatibility entry"): the global `stream`
 * functions dispatch on `model.api` to the implementation registered here. The built-in APIs are
 * registered when the module loads; their SDKs still load only on a first request.
 */

export type ApiStreamFunction = (
	model: Model<Api>,
	context: TranscriptContext,
	options?: StreamOptions,
) => AssistantMessageEventStream;
/** The `streamSimple` signature of a registered API implementation. */
export type ApiStreamSimpleFunction = (
	model: Model<Api>,
	context: TranscriptContext,
	options?: SimpleStreamOptions,
) => AssistantMessageEventStream;

/** pi-ai's registration of an API implementation: the API id with its `stream` and `streamSimple` functions. */
export interface ApiProvider<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> {
	api: TApi;
	stream: StreamFunction<TApi, TOptions>;
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>;
}

/** A registered implementation; its functions throw when handed a model of another API. */
export interface RegisteredApiProvider {
	api: Api;
	stream: ApiStreamFunction;
	streamSimple: ApiStreamSimpleFunction;
}

/** A faux provider registered under its own API id; `unregister` removes it again. */
export interface FauxProviderRegistration
	extends Omit<FauxCore, "stream" | "streamSimple" | "fetchDeferred" | "cancelDeferred" | "provider"> {
	unregister(): void;
}

const registry = new Map<Api, { provider: RegisteredApiProvider; sourceId: string | undefined }>();
/** The built-in instance registered per API, to tell an untouched built-in from an override. */
const builtinInstances = new Map<Api, RegisteredApiProvider | undefined>();

function checkedApi<TFunction extends (model: Model<Api>, ...rest: never[]) => AssistantMessageEventStream>(
	api: Api,
	fn: TFunction,
): TFunction {
	return ((model: Model<Api>, ...rest: never[]) => {
		if (model.api !== api) throw new Error(`Mismatched api: ${model.api} expected ${api}`);
		return fn(model, ...rest);
	}) as TFunction;
}

/** Registers (or replaces) the implementation of `provider.api`; `sourceId` groups registrations for removal. */
export function registerApiProvider<TApi extends Api, TOptions extends StreamOptions>(
	provider: ApiProvider<TApi, TOptions>,
	sourceId?: string,
): void {
	const registered: RegisteredApiProvider = {
		api: provider.api,
		stream: checkedApi(provider.api, provider.stream as ApiStreamFunction),
		streamSimple: checkedApi(provider.api, provider.streamSimple as ApiStreamSimpleFunction),
	};
	registry.set(provider.api, { provider: registered, sourceId });
}

/** The implementation registered for an API id, or undefined. */
export function getApiProvider(api: Api): RegisteredApiProvider | undefined {
	return registry.get(api)?.provider;
}

/** Every registered API implementation. */
export function getApiProviders(): RegisteredApiProvider[] {
	return Array.from(registry.values(), (entry) => entry.provider);
}

/** Removes every implementation registered with `sourceId`. */
export function unregisterApiProviders(sourceId: string): void {
	for (const [api, entry] of registry) if (entry.sourceId === sourceId) registry.delete(api);
}

/** Registers the built-in APIs that nothing has overridden yet. */
export function registerBuiltInApiProviders(): void {
	for (const api of builtinApiIds()) {
		if (!registry.has(api)) {
			const streams = builtinApi(api);
			registerApiProvider({ api, stream: streams.stream, streamSimple: streams.streamSimple });
		}
		builtinInstances.set(api, getApiProvider(api));
	}
}

/** Forgets every registration, then registers the built-in APIs again. */
export function resetApiProviders(): void {
	registry.clear();
	builtinInstances.clear();
	registerBuiltInApiProviders();
}

/** Whether `api` is served by its built-in implementation (not an override). */
export function isBuiltInApiProvider(api: Api): boolean {
	const current = getApiProvider(api);
	return current !== undefined && builtinInstances.get(api) === current;
}

/** A faux provider whose API the global `stream` functions reach. */
export function registerFauxProvider(options: FauxProviderOptions = {}): FauxProviderRegistration {
	const core = createFauxCore(options);
	const sourceId = `faux-provider-${Math.random().toString(36).slice(2, 10)}`;
	registerApiProvider({ api: core.api, stream: core.stream, streamSimple: core.streamSimple }, sourceId);
	return {
		api: core.api,
		models: core.models,
		getModel: core.getModel,
		state: core.state,
		setResponses: core.setResponses,
		appendResponses: core.appendResponses,
		getPendingResponseCount: core.getPendingResponseCount,
		unregister: () => unregisterApiProviders(sourceId),
	};
}

registerBuiltInApiProviders();
