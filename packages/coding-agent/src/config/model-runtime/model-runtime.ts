import { join } from "node:path";
import {
	type AnyModel,
	type Api,
	type ApiStreamOptions,
	type AssistantImages,
	type AssistantMessage,
	type AssistantMessageEventStream,
	type AuthCheck,
	type AuthInteraction,
	type AuthResolutionOverrides,
	type AuthResult,
	type AvailabilityOptions,
	type ClassifierContext,
	type ClassifierModel,
	type ClassifierResult,
	type Context,
	type Credential,
	type CredentialInfo,
	createModels,
	type DeferredHandle,
	type DeferredRequestOptions,
	type ImageModel,
	type ImagesContext,
	type LoginOptions,
	lazyStream,
	type MediaRequestOptions,
	type Message,
	type Model,
	type Models,
	type ModelsRefreshOptions,
	type ModelsRefreshResult,
	type ModelsRequestTransforms,
	type ModelType,
	type ModelTypeMap,
	type MutableModels,
	type Provider,
	type SimpleStreamOptions,
} from "@tau/ai";
import { errorMessage } from "../../core/errors.js";
import { RuntimeCredentials } from "../auth/runtime-credentials.js";
import { escapeConfigValue } from "../auth/value-reference.js";
import { isOffline } from "../env.js";
import { loadModelsJson } from "../models-json/parse.js";
import type { ModelsJson, ProviderConfig } from "../models-json/schema.js";
import { getAgentDir } from "../paths.js";
import { ProviderAvailability } from "./availability.js";
import { buildComposedProvider, radiusGatewayProvider } from "./compose-runtime-provider.js";
import type { CreateModelRuntimeOptions, ModelRuntimeOptions } from "./create-options.js";
import { CredentialSynchronizationError, type CredentialSynchronizationOperation } from "./credential-sync-error.js";
import {
	createVirtualModel,
	isVirtualModel,
	type ModelRoute,
	routeVirtualModel,
	type VirtualModelDefinition,
	type VirtualRouteOptions,
	withVirtualModels,
} from "./virtual-models.js";

/** What an extension passes to `registerProvider`: a models.json-style config, or a complete provider. */
export type ProviderRegistration = ProviderConfig | Provider;

/** How a provider's credentials are configured, for status displays (no secret is read). */
export interface AuthStatus {
	configured: boolean;
	source?: "stored" | "runtime" | "environment" | "fallback" | "models_json_key" | "models_json_command";
	label?: string;
}

function isProvider(registration: ProviderRegistration): registration is Provider {
	return typeof (registration as Provider).getModels === "function";
}

/**
 * The models a session can use (docs/models.md): the built-in catalog, models.json, extension
 * providers, virtual models and runtime API keys, composed per provider, plus a snapshot of which
 * providers have usable credentials. It is a `Models` collection: requests through it resolve
 * credentials at request time.
 */
export class ModelRuntime implements Models {
	readonly credentials: RuntimeCredentials;
	readonly models: MutableModels;
	private readonly builtins: Map<string, Provider>;
	private readonly registrations = new Map<string, ProviderRegistration>();
	/** Virtual models by provider id, then model id. */
	private readonly virtualModels = new Map<string, Map<string, VirtualModelDefinition<unknown>>>();
	private readonly modelsJsonPath: string | null;
	private modelsJson: ModelsJson | undefined;
	private modelsJsonError: string | undefined;
	private providerErrors = new Map<string, string>();
	private readonly availability: ProviderAvailability;

	constructor(options: ModelRuntimeOptions) {
		this.credentials = new RuntimeCredentials(options.credentials);
		this.models = createModels({
			credentials: this.credentials,
			authContext: options.authContext,
			modelsStore: options.modelsStore,
		});
		this.availability = new ProviderAvailability(this.models);
		this.builtins = new Map(options.builtinProviders.map((provider) => [provider.id, provider]));
		this.modelsJsonPath =
			options.modelsJsonPath === undefined
				? join(options.agentDir ?? getAgentDir(), "models.json")
				: options.modelsJsonPath;
		this.reload();
	}

	/**
	 * A runtime over `auth.json`, `models.json` and the catalog cache of the agent directory (or the
	 * given paths), with the built-in providers. Unless `refreshOnCreate` is false, stored catalogs are
	 * restored and credentials checked before it resolves; the network is used only with
	 * `allowModelNetwork`.
	 */
	static async create(options: CreateModelRuntimeOptions = {}): Promise<ModelRuntime> {
		const { modelRuntimeOptions } = await import("./create-options.js");
		const runtime = new ModelRuntime(await modelRuntimeOptions(options));
		if (options.refreshOnCreate === false) return runtime;
		const controller = options.modelRefreshTimeoutMs === undefined ? undefined : new AbortController();
		const timer = controller ? setTimeout(() => controller.abort(), options.modelRefreshTimeoutMs) : undefined;
		const signals = [options.signal, controller?.signal].filter((signal) => signal !== undefined);
		try {
			await runtime.refresh({
				allowNetwork: options.allowModelNetwork === true,
				...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
			});
		} finally {
			if (timer) clearTimeout(timer);
		}
		return runtime;
	}

	/** Re-reads models.json (when `/model` opens, on `/reload`) and recomposes every provider. */
	reload(): void {
		const loaded = this.modelsJsonPath === null ? { config: undefined } : loadModelsJson(this.modelsJsonPath);
		this.modelsJson = loaded.config;
		this.modelsJsonError = loaded.error;
		this.providerErrors = new Map();
		this.models.clearProviders();
		for (const id of this.providerIds()) this.recompose(id);
	}

	/**
	 * Everything wrong with the configured catalog: the models.json load error (the whole file is
	 * ignored) and each provider's composition error (only that provider falls back), one per line.
	 */
	getError(): string | undefined {
		const errors = [...(this.modelsJsonError ? [this.modelsJsonError] : []), ...this.getProviderErrors()];
		return errors.length > 0 ? errors.join("\n") : undefined;
	}

	/** Composition errors, one per provider: `Provider "<id>": <message>`. */
	getProviderErrors(): string[] {
		return [...this.providerErrors].map(([id, message]) => `Provider "${id}": ${message}`);
	}

	// ---- catalog ---------------------------------------------------------------------------------

	getProviders(): readonly Provider[] {
		return this.models.getProviders();
	}

	getProvider(providerId: string): Provider | undefined {
		return this.models.getProvider(providerId);
	}

	/** Every chat model (of one provider), virtual models included. */
	getModels(providerId?: string): readonly Model<Api>[] {
		return this.models.getModels(providerId);
	}

	getModel(providerId: string, modelId: string): Model<Api> | undefined {
		return this.models.getModel(providerId, modelId);
	}

	getModelsOfType<T extends ModelType>(type: T, providerId?: string): readonly ModelTypeMap[T][] {
		return this.models.getModelsOfType(type, providerId);
	}

	getModelOfType<T extends ModelType>(type: T, providerId: string, modelId: string): ModelTypeMap[T] | undefined {
		return this.models.getModelOfType(type, providerId, modelId);
	}

	getAllModels(providerId?: string): readonly AnyModel[] {
		return this.models.getAllModels(providerId);
	}

	/**
	 * Asks a provider that lists its models from its server for them now. The network is allowed even
	 * offline: the caller names that server, and the request for the model goes there anyway.
	 */
	discoverServedModels(providerId: string, signal?: AbortSignal): Promise<ModelsRefreshResult> {
		return this.models.refresh({
			providers: [providerId],
			allowNetwork: true,
			force: true,
			...(signal ? { signal } : {}),
		});
	}

	/** The display name of a provider (extension name, models.json name, built-in name, or the id). */
	getProviderDisplayName(providerId: string): string {
		return this.models.getProvider(providerId)?.name ?? providerId;
	}

	/**
	 * Reloads models.json and refreshes the catalogs (stored catalogs first; the network unless
	 * `TAU_OFFLINE`/`allowNetwork: false`), then the credential snapshot. Errors are collected per
	 * provider, never thrown.
	 */
	async refresh(options: ModelsRefreshOptions = {}): Promise<ModelsRefreshResult> {
		this.reload();
		const result = await this.models.refresh({
			...options,
			allowNetwork: (options.allowNetwork ?? true) && !isOffline(),
		});
		await this.refreshAvailability(options.providers);
		return result;
	}

	// ---- credentials and availability --------------------------------------------------------------

	checkAuth(providerId: string, options?: AvailabilityOptions): Promise<AuthCheck | undefined> {
		return this.models.checkAuth(providerId, options);
	}

	/** Models of providers with usable credentials: one provider checked now, or all (refreshing the snapshot). */
	async getAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly Model<Api>[]> {
		if (providerId !== undefined) return this.models.getAvailable(providerId, options);
		await this.refreshAvailability();
		return this.getAvailableSnapshot();
	}

	getAvailableOfType<T extends ModelType>(
		type: T,
		providerId?: string,
		options?: AvailabilityOptions,
	): Promise<readonly ModelTypeMap[T][]> {
		return this.models.getAvailableOfType(type, providerId, options);
	}

	getAllAvailable(providerId?: string, options?: AvailabilityOptions): Promise<readonly AnyModel[]> {
		return this.models.getAllAvailable(providerId, options);
	}

	/** Models of providers with usable credentials, per the last check (synchronous). */
	getAvailableSnapshot(): readonly Model<Api>[] {
		// Catalogs load on first use: other providers' catalogs stay unread.
		return this.models
			.getProviders()
			.filter((provider) => this.availability.has(provider.id))
			.flatMap((provider) => {
				const models = this.models.getModels(provider.id);
				const usable = this.availability.usable(provider.id);
				return usable ? models.filter((model) => usable.has(model.id)) : models;
			});
	}

	/** Whether the last check found usable credentials for the provider. */
	hasConfiguredAuth(providerId: string): boolean {
		return this.availability.has(providerId);
	}

	/** Whether the provider's usable credential (per the last check) is an OAuth login. */
	isUsingOAuth(providerId: string): boolean {
		return this.availability.check(providerId)?.type === "oauth";
	}

	/** An OAuth login to a subscription plan (requests cost nothing per token). */
	isUsingSubscription(providerId: string): boolean {
		return this.isUsingOAuth(providerId) && this.getProvider(providerId)?.auth.oauth?.isSubscription === true;
	}

	/** Where the provider's credentials come from, per the last check. */
	getProviderAuthStatus(providerId: string): AuthStatus {
		if (this.credentials.hasRuntimeApiKey(providerId)) return { configured: true, source: "runtime" };
		const check = this.availability.check(providerId);
		if (!check) return { configured: false };
		if (check.source === "stored credential" || check.type === "oauth") return { configured: true, source: "stored" };
		if (check.source === "models.json") return { configured: true, source: "models_json_key" };
		return { configured: true, source: "environment", ...(check.source ? { label: check.source } : {}) };
	}

	/** Request credentials (key, headers) for a provider or a model, resolved now. */
	getAuth(providerOrModel: string | AnyModel, overrides?: AuthResolutionOverrides): Promise<AuthResult | undefined> {
		return this.models.getAuth(providerOrModel, overrides);
	}

	listCredentials(options?: AvailabilityOptions): Promise<readonly CredentialInfo[]> {
		return this.credentials.list(options);
	}

	/**
	 * Re-checks auth for the given providers (default: all), serialized per provider; a result
	 * superseded by a newer refresh of the same provider is discarded.
	 */
	refreshAvailability(providerIds?: readonly string[]): Promise<void> {
		return this.availability.refresh(providerIds ?? this.models.getProviders().map((provider) => provider.id));
	}

	/**
	 * Runs a provider's login flow, saves the credential and refreshes that provider's availability.
	 * A typed API key is stored escaped, so a literal `$` or leading `!` is not read as a reference.
	 */
	async login(
		providerId: string,
		type: "api_key" | "oauth",
		interaction: AuthInteraction,
		options?: LoginOptions,
	): Promise<Credential> {
		const apiKeyAuth = this.models.getProvider(providerId)?.auth.apiKey;
		let credential: Credential;
		if (type === "api_key" && apiKeyAuth?.login) {
			const signal = interaction.signal ?? new AbortController().signal;
			const typed = await apiKeyAuth.login({ ...interaction, signal });
			credential = typed.key === undefined ? typed : { ...typed, key: escapeConfigValue(typed.key) };
			await this.credentials.modify(providerId, async () => credential, { signal });
		} else {
			credential = await this.models.login(providerId, type, interaction, options);
		}
		await this.synchronize(providerId, "login", credential);
		return credential;
	}

	/** Deletes the stored credential (the way back to environment keys) and refreshes availability. */
	async logout(providerId: string, options?: AvailabilityOptions): Promise<void> {
		await this.models.logout(providerId, options);
		await this.synchronize(providerId, "logout", undefined);
	}

	/** An API key for this process only (never stored), shadowing stored credentials. */
	async setRuntimeApiKey(providerId: string, key: string): Promise<void> {
		this.credentials.setRuntimeApiKey(providerId, key);
		await this.synchronize(providerId, "setRuntimeApiKey", { type: "api_key", key });
	}

	async removeRuntimeApiKey(providerId: string): Promise<void> {
		this.credentials.removeRuntimeApiKey(providerId);
		await this.synchronize(providerId, "removeRuntimeApiKey", undefined);
	}

	/** Waits for in-flight credential writes (e.g. an OAuth refresh) before the process may exit. */
	settleCredentialWrites(): Promise<void> {
		return this.credentials.settled();
	}

	// ---- requests ----------------------------------------------------------------------------------

	stream<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): AssistantMessageEventStream {
		return this.models.stream(model, context, options);
	}

	complete<TApi extends Api>(
		model: Model<TApi>,
		context: Context,
		options?: ApiStreamOptions<TApi> & ModelsRequestTransforms,
	): Promise<AssistantMessage> {
		return this.stream(model, context, options).result();
	}

	/** A virtual model is routed first (reason `direct`); its credentials stay with its own provider. */
	streamSimple(
		model: Model<Api>,
		context: Context,
		options?: SimpleStreamOptions & ModelsRequestTransforms,
	): AssistantMessageEventStream {
		if (!isVirtualModel(model)) return this.models.streamSimple(model, context, options);
		return lazyStream(
			model,
			async () => {
				const route = await this.resolveModel(model, context.messages, {
					reason: "direct",
					thinkingLevel: options?.reasoning ?? "off",
					...(options?.signal ? { signal: options.signal } : {}),
				});
				const limit = route.model.maxTokens;
				const maxTokens = options?.maxTokens && limit > 0 ? Math.min(options.maxTokens, limit) : options?.maxTokens;
				const { apiKey: _apiKey, headers: _headers, ...rest } = options ?? {};
				const reasoning = route.thinkingLevel === "off" ? undefined : route.thinkingLevel;
				return this.models.streamSimple(route.model, context, { ...rest, maxTokens, reasoning });
			},
			undefined,
			options?.signal,
		);
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
		return this.models.streamDeferred(model, handle, options);
	}

	fetchDeferred(
		model: Model<Api>,
		handle: DeferredHandle,
		options?: DeferredRequestOptions,
	): Promise<AssistantMessage> {
		return this.models.fetchDeferred(model, handle, options);
	}

	cancelDeferred(model: Model<Api>, handle: DeferredHandle, options?: DeferredRequestOptions): Promise<void> {
		return this.models.cancelDeferred(model, handle, options);
	}

	generateImages(model: ImageModel, context: ImagesContext, options?: MediaRequestOptions): Promise<AssistantImages> {
		return this.models.generateImages(model, context, options);
	}

	classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options?: MediaRequestOptions,
	): Promise<ClassifierResult> {
		return this.models.classify(model, context, options);
	}

	// ---- registrations -----------------------------------------------------------------------------

	/** Registers (or replaces) an extension provider or overlay; applied after models.json. */
	registerProvider(id: string, registration: ProviderRegistration): void {
		this.registrations.set(id, registration);
		this.providerErrors.delete(id);
		this.recompose(id);
		void this.refreshAvailability([id]);
	}

	/** Registers a complete provider implementation (it replaces a built-in of the same id). */
	registerNativeProvider(provider: Provider): void {
		if (!provider.id.trim()) throw new Error("Provider id must not be empty.");
		this.registerProvider(provider.id, provider);
	}

	unregisterProvider(id: string): void {
		this.registrations.delete(id);
		this.providerErrors.delete(id);
		this.models.deleteProvider(id);
		this.recompose(id);
		void this.refreshAvailability([id]);
	}

	/** The config an extension registered for a provider (not a native provider). */
	getRegisteredProviderConfig(providerId: string): ProviderConfig | undefined {
		const registration = this.registrations.get(providerId);
		return registration && !isProvider(registration) ? registration : undefined;
	}

	getRegisteredNativeProvider(providerId: string): Provider | undefined {
		const registration = this.registrations.get(providerId);
		return registration && isProvider(registration) ? registration : undefined;
	}

	getRegisteredProviderIds(): readonly string[] {
		return [...this.registrations.keys()];
	}

	/**
	 * Lists a virtual model under `definition.provider` (docs/models.md); registering the same provider
	 * and id again replaces it. Throws when the id belongs to a physical model of that provider.
	 */
	registerVirtualModel<TState>(definition: VirtualModelDefinition<TState>): void {
		const { provider: providerId, id } = definition;
		if (!providerId.trim() || !id.trim()) throw new Error("Virtual model provider and id must not be empty.");
		const existing = this.models.getModel(providerId, id);
		if (existing && !isVirtualModel(existing)) {
			throw new Error(`Virtual model ${providerId}/${id} conflicts with a physical model.`);
		}
		const models = this.virtualModels.get(providerId) ?? new Map<string, VirtualModelDefinition<unknown>>();
		models.set(id, definition as VirtualModelDefinition<unknown>);
		this.virtualModels.set(providerId, models);
		const physical = this.recompose(providerId);
		// A provider of only virtual models needs no credentials; usable before its check lands.
		if (!physical) this.availability.assume(providerId, { type: "api_key", source: "virtual" });
		else void this.refreshAvailability([providerId]);
	}

	unregisterVirtualModel(providerId: string, id: string): void {
		const models = this.virtualModels.get(providerId);
		if (!models?.delete(id)) return;
		if (models.size === 0) this.virtualModels.delete(providerId);
		if (!this.recompose(providerId) && models.size === 0) this.availability.forget(providerId);
	}

	/**
	 * Asks a virtual model's router for the physical model and thinking level of one request. The
	 * route must name a physical catalog model whose provider has credentials; the level is clamped to
	 * it. Throws when routing fails (the request then ends as an error response).
	 */
	async resolveModel(
		model: Model<Api>,
		messages: readonly Message[],
		options: VirtualRouteOptions,
	): Promise<ModelRoute> {
		const definition = this.virtualModels.get(model.provider)?.get(model.id);
		if (!definition) throw new Error(`Virtual model ${model.provider}/${model.id} is not registered.`);
		return routeVirtualModel(definition, model, messages, options, {
			physicalModel: (provider, id) => this.getPhysicalModel(provider, id),
			hasCredentials: async (provider) =>
				(await this.models.checkAuth(provider).catch(() => undefined)) !== undefined,
		});
	}

	/** A catalog chat model that is not virtual. */
	getPhysicalModel(providerId: string, modelId: string): Model<Api> | undefined {
		const model = this.models.getModel(providerId, modelId);
		return model && !isVirtualModel(model) ? model : undefined;
	}

	// ---- composition -------------------------------------------------------------------------------

	private providerIds(): string[] {
		return [
			...new Set([
				...this.builtins.keys(),
				...Object.keys(this.modelsJson?.providers ?? {}),
				...this.registrations.keys(),
				...this.virtualModels.keys(),
			]),
		];
	}

	/** Installs the provider with its virtual models; returns it without them (undefined: only virtual models). */
	private recompose(id: string): Provider | undefined {
		const provider = this.compose(id);
		const virtual = [...(this.virtualModels.get(id)?.values() ?? [])].map((definition) =>
			createVirtualModel(definition),
		);
		if (virtual.length > 0) this.models.setProvider(withVirtualModels(id, provider, virtual));
		else if (provider) this.models.setProvider(provider);
		else this.models.deleteProvider(id);
		return provider;
	}

	private compose(id: string): Provider | undefined {
		const registration = this.registrations.get(id);
		const native = registration && isProvider(registration) ? registration : undefined;
		const overlay = registration && !isProvider(registration) ? registration : undefined;
		const config = this.modelsJson?.providers[id];
		const base = native ?? radiusGatewayProvider(id, config) ?? this.builtins.get(id);
		if (!config && !overlay) return base;
		try {
			return buildComposedProvider(id, base, config, overlay);
		} catch (error) {
			// One broken provider falls back to its un-overlaid definition; the rest are unaffected.
			this.providerErrors.set(id, errorMessage(error));
			return base;
		}
	}

	/**
	 * After a credential change the provider is recomposed, its stored catalog restored and its
	 * availability re-checked; a failure there (the credential change itself succeeded) is a
	 * `CredentialSynchronizationError`.
	 */
	private async synchronize(
		providerId: string,
		operation: CredentialSynchronizationOperation,
		credential: Credential | undefined,
	): Promise<void> {
		try {
			this.providerErrors.delete(providerId);
			this.recompose(providerId);
			const composition = this.providerErrors.get(providerId);
			if (composition) throw new Error(composition);
			const result = await this.models.refresh({ allowNetwork: false, providers: [providerId] });
			const failure = result.errors.get(providerId);
			if (failure) throw failure;
			await this.refreshAvailability([providerId]);
		} catch (cause) {
			throw new CredentialSynchronizationError(providerId, operation, credential, { cause });
		}
	}
}
