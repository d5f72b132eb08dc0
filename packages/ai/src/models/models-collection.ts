import { defaultProviderAuthContext } from "../auth/auth-context.js";
import { InMemoryCredentialStore } from "../auth/memory-credential-store.js";
import { checkProviderAuth, resolveProviderAuth } from "../auth/resolve-provider-auth.js";
import type { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import { describeThrown } from "../stream/failure.js";
import { lazyStream } from "../stream/lazy-stream.js";
import { normalizeContext } from "../system-messages/normalize-context.js";
import type { ApiStreamOptions } from "../types/api-options.js";
import type {
	AuthCheck,
	AuthContext,
	AuthInteraction,
	AuthResolutionOverrides,
	AuthResult,
	Credential,
	CredentialStore,
	LoginOptions,
} from "../types/auth.js";
import type { Context, TranscriptContext } from "../types/context.js";
import type { ClientIdentity } from "../types/identity.js";
import type {
	AssistantImages,
	ClassifierContext,
	ClassifierResult,
	ImagesContext,
	ImagesOptions,
	MediaRequestOptions,
} from "../types/media.js";
import type { AssistantMessage, DeferredHandle } from "../types/messages.js";
import type { AnyModel, Api, ClassifierModel, ImageModel, Model, ModelType, ModelTypeMap } from "../types/model.js";
import type { SimpleStreamOptions, StreamOptions } from "../types/options.js";
import type {
	AvailabilityOptions,
	CreateModelsOptions,
	DeferredRequestOptions,
	ModelsRefreshOptions,
	ModelsRefreshResult,
	ModelsRequestTransforms,
	ModelsStore,
	MutableModels,
	Provider,
} from "../types/provider.js";
import { raceSignal } from "../utils/abort.js";
import { mergeHeaders } from "../utils/headers.js";
import { refreshProviderCatalog } from "./catalog-refresh.js";
import { failedClassification, failedImages, neverRejecting } from "./media-failures.js";
import { InMemoryModelsStore } from "./memory-models-store.js";
import { getModelType, isModelType } from "./model-helpers.js";
import { ModelsError } from "./models-error.js";
import { prepareRequest } from "./request-pipeline.js";

type RequestOptions = StreamOptions & ModelsRequestTransforms;
type AuthOptions = { signal?: AbortSignal; apiKey?: string; env?: Record<string, string> };
type ProviderCall = (
	provider: Provider,
	model: Model<Api>,
	transcript: TranscriptContext,
	options: StreamOptions,
) => AssistantMessageEventStream;

function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(describeThrown(error));
}

/** The model/provider/auth runtime behind `createModels()`. */
class ModelsCollection implements MutableModels {
	private readonly providers = new Map<string, Provider>();
	private readonly generations = new Map<string, number>();
	private readonly credentials: CredentialStore;
	private readonly modelsStore: ModelsStore;
	private readonly authContext: AuthContext;
	private readonly identity: ClientIdentity | undefined;

	constructor(options: CreateModelsOptions) {
		this.credentials = options.credentials ?? new InMemoryCredentialStore();
		this.modelsStore = options.modelsStore ?? new InMemoryModelsStore();
		this.authContext = options.authContext ?? defaultProviderAuthContext();
		this.identity = options.identity;
	}

	setProvider(provider: Provider): void {
		this.providers.set(provider.id, provider);
		this.bumpGeneration(provider.id);
	}

	deleteProvider(id: string): void {
		this.providers.delete(id);
		this.bumpGeneration(id);
	}

	clearProviders(): void {
		for (const id of this.providers.keys()) this.bumpGeneration(id);
		this.providers.clear();
	}

	getProviders(): readonly Provider[] {
		return [...this.providers.values()];
	}

	getProvider(id: string): Provider | undefined {
		return this.providers.get(id);
	}

	getAllModels(provider?: string): readonly AnyModel[] {
		return this.selectProviders(provider).flatMap((p) => this.modelsOf(p));
	}

	getModels(provider?: string): readonly Model<Api>[] {
		return this.getModelsOfType("chat", provider);
	}

	getModel(provider: string, id: string): Model<Api> | undefined {
		return this.getModelOfType("chat", provider, id);
	}

	getModelsOfType<T extends ModelType>(type: T, provider?: string): readonly ModelTypeMap[T][] {
		return this.getAllModels(provider).filter((model): model is ModelTypeMap[T] => isModelType(model, type));
	}

	getModelOfType<T extends ModelType>(type: T, provider: string, id: string): ModelTypeMap[T] | undefined {
		return this.getModelsOfType(type, provider).find((model) => model.id === id);
	}

	async refresh(options: ModelsRefreshOptions = {}): Promise<ModelsRefreshResult> {
		const errors = new Map<string, Error>();
		const controller = new AbortController();
		const callerSignal = options.signal;
		const onAbort = () => controller.abort(callerSignal?.reason);
		if (callerSignal?.aborted) return { aborted: true, errors };
		callerSignal?.addEventListener("abort", onAbort, { once: true });
		const selected = this.getProviders().filter(
			(p) => p.refreshModels && (!options.providers || options.providers.includes(p.id)),
		);
		const deps = {
			credentials: this.credentials,
			authContext: this.authContext,
			modelsStore: this.modelsStore,
			isConfigured: async (p: Provider, signal: AbortSignal) =>
				(await checkProviderAuth(p, this.credentials, this.authContext, signal)) !== undefined,
			isCurrent: (p: Provider, generation: number) =>
				this.providers.get(p.id) === p && this.generations.get(p.id) === generation,
			startGeneration: (p: Provider) => this.bumpGeneration(p.id),
		};
		const work = Promise.all(
			selected.map((p) =>
				refreshProviderCatalog(p, deps, options, controller.signal).catch((error) => {
					if (!controller.signal.aborted) errors.set(p.id, toError(error));
				}),
			),
		);
		try {
			await raceSignal(work, callerSignal);
		} catch {
			// The caller gave up; in-flight work continues but can no longer publish over newer state.
		} finally {
			callerSignal?.removeEventListener("abort", onAbort);
		}
		return { aborted: callerSignal?.aborted === true, errors };
	}

	checkAuth(providerId: string, options?: AvailabilityOptions): Promise<AuthCheck | undefined> {
		const provider = this.requireProvider(providerId);
		return checkProviderAuth(provider, this.credentials, this.authContext, options?.signal);
	}

	async getAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly Model<Api>[]> {
		return this.getAvailableOfType("chat", providerId, options);
	}

	async getAvailableOfType<T extends ModelType>(
		type: T,
		providerId?: string,
		options?: AvailabilityOptions,
	): Promise<readonly ModelTypeMap[T][]> {
		const models = await this.getAllAvailable(providerId, options);
		return models.filter((model): model is ModelTypeMap[T] => isModelType(model, type));
	}

	async getAllAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly AnyModel[]> {
		const providers = providerId === undefined ? this.getProviders() : [this.requireProvider(providerId)];
		const lists = await Promise.all(
			providers.map(async (provider) => {
				const check = await checkProviderAuth(provider, this.credentials, this.authContext, options?.signal).catch(
					(error) => {
						if (providerId !== undefined) throw error;
						return undefined;
					},
				);
				if (!check) return [];
				const credential = await this.credentials.read(provider.id, options);
				let models: readonly AnyModel[] = this.modelsOf(provider);
				if (provider.filterAllModels) models = provider.filterAllModels(models, credential);
				if (provider.filterModels) {
					const chat = provider.filterModels(
						models.filter((model): model is Model<Api> => isModelType(model, "chat")),
						credential,
					);
					models = [...chat, ...models.filter((model) => !isModelType(model, "chat"))];
				}
				return models;
			}),
		);
		return lists.flat();
	}

	async getAuth(
		providerOrModel: string | AnyModel,
		overrides?: AuthResolutionOverrides,
	): Promise<AuthResult | undefined> {
		const model = typeof providerOrModel === "string" ? undefined : providerOrModel;
		const provider = this.requireProvider(model ? model.provider : (providerOrModel as string));
		const result = await resolveProviderAuth(provider, this.credentials, this.authContext, overrides);
		if (!result || !model?.headers) return result;
		return { ...result, auth: { ...result.auth, headers: mergeHeaders(result.auth.headers, model.headers) } };
	}

	async login(
		providerId: string,
		type: "api_key" | "oauth",
		interaction: AuthInteraction,
		options?: LoginOptions,
	): Promise<Credential> {
		const provider = this.requireProvider(providerId);
		const signal = interaction.signal ?? new AbortController().signal;
		let credential: Credential;
		if (type === "oauth") {
			const oauth = provider.auth.oauth;
			if (!oauth) throw new ModelsError("auth", `${provider.name} does not support oauth login`);
			credential = await oauth.login(interaction, options);
		} else {
			const login = provider.auth.apiKey?.login;
			if (!login) throw new ModelsError("auth", `${provider.name} does not support api_key login`);
			credential = await login.call(provider.auth.apiKey, { ...interaction, signal });
		}
		await this.credentials.modify(providerId, async () => credential, { signal });
		return credential;
	}

	async logout(providerId: string, options?: AvailabilityOptions): Promise<void> {
		await this.credentials.delete(providerId, options);
	}

	stream<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): AssistantMessageEventStream {
		return this.request(model, context, options, (p, m, t, o) => p.stream(m, t, o as ApiStreamOptions<Api>));
	}

	complete<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): Promise<AssistantMessage> {
		return this.stream(model, context, options).result();
	}

	streamSimple(model: Model<Api>, context: Context, options?: SimpleStreamOptions & ModelsRequestTransforms) {
		return this.request(model, context, options, (p, m, t, o) => p.streamSimple(m, t, o as SimpleStreamOptions));
	}

	completeSimple(
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions & ModelsRequestTransforms,
	): Promise<AssistantMessage> {
		return this.streamSimple(model, context, options).result();
	}

	streamDeferred(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): AssistantMessageEventStream {
		return this.request(model, { messages: [] }, options, (p, m, _t, o) => {
			if (!p.fetchDeferred) throw new ModelsError("stream", `Provider ${p.id} does not support deferred responses`);
			return p.fetchDeferred(m, handle, o);
		});
	}

	fetchDeferred(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): Promise<AssistantMessage> {
		return this.streamDeferred(model, handle, options).result();
	}

	async cancelDeferred(model: Model<Api>, handle: DeferredHandle, options?: DeferredRequestOptions): Promise<void> {
		const provider = this.requireProvider(model.provider);
		await provider.cancelDeferred?.(model, handle, options);
	}

	generateImages(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages> {
		return neverRejecting(
			async () => {
				if (getModelType(model) !== "image")
					throw new ModelsError("provider", `Model ${model.provider}/${model.id} is not an image model`);
				const provider = await this.configuredProvider(model, options);
				if (!provider.generateImages)
					throw new ModelsError("stream", `Provider ${provider.id} cannot generate images`);
				return provider.generateImages(model, context, options);
			},
			(error) => failedImages(model, error, options?.signal),
		);
	}

	classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult> {
		return neverRejecting(
			async () => {
				if (getModelType(model) !== "classifier") {
					throw new ModelsError("provider", `Model ${model.provider}/${model.id} is not a classifier model`);
				}
				const provider = await this.configuredProvider(model, options);
				if (!provider.classify) throw new ModelsError("stream", `Provider ${provider.id} cannot classify`);
				return provider.classify(model, context, options);
			},
			(error) => failedClassification(model, error, options?.signal),
		);
	}

	/** The request pipeline: normalize once, then auth, headers and dispatch behind a lazy stream. */
	private request(
		model: Model<Api>,
		context: Context,
		options: RequestOptions | undefined,
		call: ProviderCall,
	): AssistantMessageEventStream {
		const transcript = normalizeContext(context);
		const signal = options?.signal;
		return lazyStream(
			model,
			async () => {
				if (getModelType(model) !== "chat") {
					throw new ModelsError("provider", `Model ${model.provider}/${model.id} is not a chat model`);
				}
				const provider = this.requireProvider(model.provider);
				const auth = await this.resolveAuth(provider, options);
				const prepared = await prepareRequest(model, auth, options, this.identity);
				return call(provider, prepared.model, transcript, prepared.options);
			},
			undefined,
			signal,
		);
	}

	/** The model's provider, checked to be configured (media requests). */
	private async configuredProvider(model: AnyModel, options: AuthOptions | undefined): Promise<Provider> {
		const provider = this.requireProvider(model.provider);
		await this.resolveAuth(provider, options);
		return provider;
	}

	private async resolveAuth(provider: Provider, options: AuthOptions | undefined): Promise<AuthResult> {
		const overrides: AuthResolutionOverrides = {};
		if (options?.apiKey !== undefined) overrides.apiKey = options.apiKey;
		if (options?.env !== undefined) overrides.env = options.env;
		if (options?.signal !== undefined) overrides.signal = options.signal;
		const auth = await resolveProviderAuth(provider, this.credentials, this.authContext, overrides);
		if (!auth) throw new ModelsError("auth", `Provider is not configured: ${provider.id}`);
		return auth;
	}

	private requireProvider(id: string): Provider {
		const provider = this.providers.get(id);
		if (!provider) throw new ModelsError("provider", `Unknown provider: ${id}`);
		return provider;
	}

	private selectProviders(id: string | undefined): Provider[] {
		if (id === undefined) return this.getProviders() as Provider[];
		const provider = this.providers.get(id);
		return provider ? [provider] : [];
	}

	/** A provider's current list; one that throws contributes nothing instead of breaking the others. */
	private modelsOf(provider: Provider): readonly AnyModel[] {
		try {
			return provider.getAllModels?.() ?? provider.getModels();
		} catch {
			return [];
		}
	}

	private bumpGeneration(id: string): number {
		const next = (this.generations.get(id) ?? 0) + 1;
		this.generations.set(id, next);
		return next;
	}
}

/** A new model/provider/auth runtime with no providers registered. */
export function createModels(options: CreateModelsOptions = {}): MutableModels {
	return new ModelsCollection(options);
}
