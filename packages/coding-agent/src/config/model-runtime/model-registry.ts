import type {
	Api,
	ApiStreamOptions,
	AssistantImages,
	AssistantMessage,
	AssistantMessageEventStream,
	AuthResult,
	AvailabilityOptions,
	ClassifierContext,
	ClassifierModel,
	ClassifierResult,
	Context,
	ImageModel,
	ImagesContext,
	MediaRequestOptions,
	Model,
	ModelsRefreshOptions,
	ModelsRefreshResult,
	ModelsRequestTransforms,
	ModelType,
	ModelTypeMap,
	Provider,
	SimpleStreamOptions,
} from "@tau/ai";
import { errorMessage } from "../../core/errors.js";
import type { ProviderConfig } from "../models-json/schema.js";
import type { AuthStatus, ModelRuntime } from "./model-runtime.js";
import type { VirtualModelDefinition } from "./virtual-models.js";

/** Credentials for one request, or why there are none. */
export type ResolvedRequestAuth =
	| {
			ok: true;
			apiKey?: string;
			headers?: Record<string, string | null>;
			baseUrl?: string;
			env?: Readonly<Record<string, string>>;
	  }
	| { ok: false; error: string };

/**
 * The synchronous facade over a `ModelRuntime` that extensions get as `ctx.modelRegistry`
 * (docs/extensions.md): catalog reads from the last snapshot, requests with credentials resolved at
 * request time.
 */
export class ModelRegistry {
	constructor(private readonly runtime: ModelRuntime) {}

	/** Reloads models.json and the catalogs; await it before the synchronous reads. */
	refresh(options?: ModelsRefreshOptions): Promise<ModelsRefreshResult> {
		return this.runtime.refresh(options);
	}

	getError(): string | undefined {
		return this.runtime.getError();
	}

	getAll(): Model<Api>[] {
		return [...this.runtime.getModels()];
	}

	getAvailable(): Model<Api>[] {
		return [...this.runtime.getAvailableSnapshot()];
	}

	find(provider: string, modelId: string): Model<Api> | undefined {
		return this.runtime.getModel(provider, modelId);
	}

	/** A model of another type, e.g. `findOfType("classifier", provider, id)`. */
	findOfType<T extends ModelType>(type: T, provider: string, modelId: string): ModelTypeMap[T] | undefined {
		return this.runtime.getModelOfType(type, provider, modelId);
	}

	hasConfiguredAuth(model: Model<Api>): boolean {
		return this.runtime.hasConfiguredAuth(model.provider);
	}

	/** The key, headers and base URL a request to `model` would use now; never throws. */
	async getApiKeyAndHeaders(model: Model<Api>): Promise<ResolvedRequestAuth> {
		try {
			const resolution = await this.runtime.getAuth(model);
			if (!resolution) return { ok: false, error: `No API key found for "${model.provider}"` };
			const { apiKey, headers, baseUrl } = resolution.auth as typeof resolution.auth & { baseUrl?: string };
			return {
				ok: true,
				...(apiKey !== undefined ? { apiKey } : {}),
				...(headers !== undefined ? { headers } : {}),
				...(baseUrl ? { baseUrl } : {}),
				...(resolution.env !== undefined ? { env: resolution.env } : {}),
			};
		} catch (error) {
			const message = errorMessage(error);
			return {
				ok: false,
				error:
					message === "authHeader requires a resolved API key"
						? `No API key found for "${model.provider}"`
						: message,
			};
		}
	}

	getProviderAuthStatus(provider: string): AuthStatus {
		return this.runtime.getProviderAuthStatus(provider);
	}

	getProvider(provider: string): Provider | undefined {
		return this.runtime.getProvider(provider);
	}

	stream<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): AssistantMessageEventStream {
		return this.runtime.stream(model, context, options);
	}

	/** Provider-neutral options; a virtual model is routed first (reason `direct`). */
	streamSimple(
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions & ModelsRequestTransforms,
	): AssistantMessageEventStream {
		return this.runtime.streamSimple(model, context, options);
	}

	complete<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): Promise<AssistantMessage> {
		return this.runtime.complete(model, context, options);
	}

	getModelsOfType<T extends ModelType>(type: T, provider?: string): readonly ModelTypeMap[T][] {
		return this.runtime.getModelsOfType(type, provider);
	}

	getAvailableOfType<T extends ModelType>(
		type: T,
		provider?: string,
		options?: AvailabilityOptions,
	): Promise<readonly ModelTypeMap[T][]> {
		return this.runtime.getAvailableOfType(type, provider, options);
	}

	getModelOfType<T extends ModelType>(type: T, provider: string, modelId: string): ModelTypeMap[T] | undefined {
		return this.runtime.getModelOfType(type, provider, modelId);
	}

	/** Never rejects: failures are an error result. */
	classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult> {
		return this.runtime.classify(model, context, options);
	}

	/** Never rejects: failures are an error result. */
	generateImages(model: ImageModel, context: ImagesContext, options?: MediaRequestOptions): Promise<AssistantImages> {
		return this.runtime.generateImages(model, context, options);
	}

	getProviderDisplayName(provider: string): string {
		return this.runtime.getProviderDisplayName(provider);
	}

	getProviderAuth(provider: string): Promise<AuthResult | undefined> {
		return this.runtime.getAuth(provider);
	}

	async getApiKeyForProvider(provider: string): Promise<string | undefined> {
		try {
			return (await this.runtime.getAuth(provider))?.auth.apiKey;
		} catch {
			return undefined;
		}
	}

	isUsingOAuth(model: Model<Api>): boolean {
		return this.runtime.isUsingOAuth(model.provider);
	}

	registerProvider(provider: Provider): void;
	registerProvider(providerName: string, config: ProviderConfig): void;
	registerProvider(providerOrName: Provider | string, config?: ProviderConfig): void {
		if (typeof providerOrName !== "string") {
			this.runtime.registerNativeProvider(providerOrName);
			return;
		}
		if (!config) throw new Error("Provider config is required when registering by name");
		this.runtime.registerProvider(providerOrName, config);
	}

	unregisterProvider(providerName: string): void {
		this.runtime.unregisterProvider(providerName);
	}

	registerVirtualModel(definition: VirtualModelDefinition): void {
		this.runtime.registerVirtualModel(definition);
	}

	unregisterVirtualModel(providerName: string, id: string): void {
		this.runtime.unregisterVirtualModel(providerName, id);
	}

	getRegisteredProviderConfig(providerName: string): ProviderConfig | undefined {
		return this.runtime.getRegisteredProviderConfig(providerName);
	}

	getRegisteredNativeProvider(providerName: string): Provider | undefined {
		return this.runtime.getRegisteredNativeProvider(providerName);
	}

	getRegisteredProviderIds(): readonly string[] {
		return this.runtime.getRegisteredProviderIds();
	}
}
