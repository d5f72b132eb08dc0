import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import type { ApiStreamOptions } from "./api-options.js";
import type {
	AuthCheck,
	AuthContext,
	AuthInteraction,
	AuthResolutionOverrides,
	AuthResult,
	Credential,
	CredentialStore,
	LoginOptions,
	ProviderAuth,
} from "./auth.js";
import type { Context, TranscriptContext } from "./context.js";
import type { ClientIdentity } from "./identity.js";
import type {
	AssistantImages,
	ClassifierContext,
	ClassifierResult,
	ImagesContext,
	ImagesOptions,
	MediaRequestOptions,
} from "./media.js";
import type { AssistantMessage, DeferredHandle } from "./messages.js";
import type { AnyModel, Api, ClassifierModel, ImageModel, Model, ModelType, ModelTypeMap } from "./model.js";
import type { SimpleStreamOptions, StreamOptions } from "./options.js";

/** One request against one model, as a stream of events. Never throws; failures are `error` events. */
export type StreamFunction<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> = (
	model: Model<TApi>,
	context: TranscriptContext,
	options?: TOptions,
) => AssistantMessageEventStream;

/** Options of fetching or cancelling a deferred request: abort signal, API key, headers and environment. */
export interface DeferredRequestOptions {
	signal?: AbortSignal;
	apiKey?: string;
	headers?: Record<string, string | null>;
	env?: Record<string, string>;
}

/** An API implementation (the provider specification every adapter module satisfies). */
export interface ProviderStreams {
	stream(model: Model<Api>, context: TranscriptContext, options?: StreamOptions): AssistantMessageEventStream;
	streamSimple(
		model: Model<Api>,
		context: TranscriptContext,
		options?: SimpleStreamOptions,
	): AssistantMessageEventStream;
	fetchDeferred?(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): AssistantMessageEventStream;
	cancelDeferred?(model: Model<Api>, handle: DeferredHandle, options?: DeferredRequestOptions): Promise<void>;
}

/** A provider's image generation implementation. */
export interface ProviderImages {
	generateImages(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
}

/** A provider's classifier implementation. */
export interface ProviderClassifier {
	classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult>;
}

/** A stored dynamic catalog of one provider. */
export interface ModelsStoreEntry {
	models: AnyModel[];
	lastModified?: number;
	checkedAt?: number;
	etag?: string;
}

/** Stores each provider's refreshed model list between runs. */
export interface ModelsStore {
	read(providerId: string, options?: { signal?: AbortSignal }): Promise<ModelsStoreEntry | undefined>;
	write(providerId: string, entry: ModelsStoreEntry, options?: { signal?: AbortSignal }): Promise<void>;
	delete(providerId: string, options?: { signal?: AbortSignal }): Promise<void>;
}

/** How a provider's model refresh publishes its result: what to persist, and the update to apply after. */
export interface ModelsPublication {
	/** `null` deletes the stored entry. */
	persist?: ModelsStoreEntry | null;
	/** Runs synchronously after persistence. */
	update?: () => void;
}

/** What `refreshModels`/`fetchModels` receive. */
export interface RefreshModelsContext {
	credential?: Credential;
	stored?: Readonly<ModelsStoreEntry>;
	/** Resolves false when this refresh was superseded. */
	publish(publication: ModelsPublication): Promise<boolean>;
	allowNetwork: boolean;
	force?: boolean;
	signal: AbortSignal;
	baseUrl?: string;
}

/**
 * A model provider: its id, name, endpoint, auth and the API implementation that streams its models, plus how it lists
 * them.
 */
export interface Provider<TApi extends Api = Api> {
	readonly id: string;
	readonly name: string;
	readonly baseUrl?: string;
	/** Metadata for hosts; `Models` does not apply it. */
	readonly headers?: Record<string, string | null>;
	readonly auth: ProviderAuth;
	/** Last-known chat models; never throws. */
	getModels(): readonly Model<TApi>[];
	getAllModels?(): readonly AnyModel[];
	refreshModels?(context: RefreshModelsContext): Promise<void>;
	readonly refreshModelsAuth?: "credential" | "configured";
	filterModels?(models: readonly Model<TApi>[], credential: Credential | undefined): readonly Model<TApi>[];
	filterAllModels?(models: readonly AnyModel[], credential: Credential | undefined): readonly AnyModel[];
	stream<T extends TApi>(
		model: Model<T>,
		context: TranscriptContext,
		options?: ApiStreamOptions<T>,
	): AssistantMessageEventStream;
	streamSimple(
		model: Model<TApi>,
		context: TranscriptContext,
		options?: SimpleStreamOptions,
	): AssistantMessageEventStream;
	fetchDeferred?(
		model: Model<TApi>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): AssistantMessageEventStream;
	cancelDeferred?(model: Model<TApi>, handle: DeferredHandle, options?: DeferredRequestOptions): Promise<void>;
	/** Never rejects. */
	generateImages?(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
	/** Never rejects. */
	classify?(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult>;
}

/**
 * Options of `createProvider`: id, name, base URL and headers, auth, the API implementation and the models or how to
 * fetch them.
 */
export interface CreateProviderOptions<TApi extends Api = Api> {
	id: string;
	/** Defaults to `id`. */
	name?: string;
	baseUrl?: string;
	headers?: Record<string, string | null>;
	auth: ProviderAuth;
	/** Static baseline; models without `type` are chat. A function is called once, on first use (a lazily read catalog). */
	models: readonly AnyModel[] | (() => readonly AnyModel[]);
	fetchModels?: (context: RefreshModelsContext) => Promise<readonly AnyModel[]>;
	refreshModelsAuth?: "credential" | "configured";
	filterModels?(models: readonly Model<TApi>[], credential: Credential | undefined): readonly Model<TApi>[];
	filterAllModels?(models: readonly AnyModel[], credential: Credential | undefined): readonly AnyModel[];
	/** A single implementation, or a map keyed by `model.api`. */
	api?: ProviderStreams | Partial<Record<TApi, ProviderStreams>>;
	images?: Partial<Record<string, ProviderImages>>;
	classifiers?: Partial<Record<string, ProviderClassifier>>;
}

/** Hooks that change every request the `Models` runtime sends, such as its final headers. */
export interface ModelsRequestTransforms {
	/** Sees the merged request headers; its result is final. Providers never receive it. */
	transformHeaders?: (
		headers: Record<string, string | null>,
	) => Record<string, string | null> | Promise<Record<string, string | null>>;
}

/** Options of `Models.refresh`: whether the network may be used, which providers, forcing a refresh, abort signal. */
export interface ModelsRefreshOptions {
	allowNetwork?: boolean;
	providers?: readonly string[];
	force?: boolean;
	signal?: AbortSignal;
}

/** The outcome of `Models.refresh`: whether it was aborted and the error of each provider that failed. */
export interface ModelsRefreshResult {
	aborted: boolean;
	errors: ReadonlyMap<string, Error>;
}

/** Options of `Models.isAvailable` and related checks. */
export interface AvailabilityOptions {
	signal?: AbortSignal;
}

/** The model/provider/auth runtime: synchronous reads, network only in `refresh()`. */
export interface Models {
	getProviders(): readonly Provider[];
	getProvider(id: string): Provider | undefined;
	getModels(provider?: string): readonly Model<Api>[];
	getModel(provider: string, id: string): Model<Api> | undefined;
	getModelsOfType<T extends ModelType>(type: T, provider?: string): readonly ModelTypeMap[T][];
	getModelOfType<T extends ModelType>(type: T, provider: string, id: string): ModelTypeMap[T] | undefined;
	getAllModels(provider?: string): readonly AnyModel[];
	refresh(options?: ModelsRefreshOptions): Promise<ModelsRefreshResult>;
	checkAuth(providerId: string, options?: AvailabilityOptions): Promise<AuthCheck | undefined>;
	getAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly Model<Api>[]>;
	getAvailableOfType<T extends ModelType>(
		type: T,
		providerId?: string,
		options?: AvailabilityOptions,
	): Promise<readonly ModelTypeMap[T][]>;
	getAllAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly AnyModel[]>;
	getAuth(providerOrModel: string | AnyModel, overrides?: AuthResolutionOverrides): Promise<AuthResult | undefined>;
	login(
		providerId: string,
		type: "api_key" | "oauth",
		interaction: AuthInteraction,
		options?: LoginOptions,
	): Promise<Credential>;
	logout(providerId: string, options?: AvailabilityOptions): Promise<void>;
	stream<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): AssistantMessageEventStream;
	complete<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): Promise<AssistantMessage>;
	streamSimple(
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions & ModelsRequestTransforms,
	): AssistantMessageEventStream;
	completeSimple(
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions & ModelsRequestTransforms,
	): Promise<AssistantMessage>;
	streamDeferred(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): AssistantMessageEventStream;
	fetchDeferred(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): Promise<AssistantMessage>;
	cancelDeferred(model: Model<Api>, handle: DeferredHandle, options?: DeferredRequestOptions): Promise<void>;
	generateImages(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
	classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult>;
}

/** A `Models` runtime whose providers can be added, replaced and removed. */
export interface MutableModels extends Models {
	/** Upsert by id; supersedes any in-flight refresh of that id. */
	setProvider(provider: Provider): void;
	deleteProvider(id: string): void;
	clearProviders(): void;
}

/**
 * Options of `createModels`: the credential store, the store of refreshed model lists, the auth context and client
 * identity.
 */
export interface CreateModelsOptions {
	credentials?: CredentialStore;
	modelsStore?: ModelsStore;
	authContext?: AuthContext;
	identity?: ClientIdentity;
}
