import { join } from "node:path";
import {
	type AnyModel,
	type AuthContext,
	type AuthInteraction,
	type Credential,
	type CredentialStore,
	createModels,
	createProvider,
	type LoginOptions,
	type Model,
	type ModelsStore,
	type MutableModels,
	type Provider,
	type RefreshModelsContext,
} from "@tau/ai";
import { RuntimeCredentials } from "../auth/runtime-credentials.js";
import { escapeConfigValue } from "../auth/value-reference.js";
import { isOffline } from "../env.js";
import { errorMessage } from "../fs/json-text.js";
import { type BaseProvider, type ComposedProvider, composeProvider } from "../models-json/compose.js";
import { loadModelsJson } from "../models-json/parse.js";
import type { ModelsJson, ProviderConfig } from "../models-json/schema.js";
import { getAgentDir } from "../paths.js";
import { composedAuth } from "./provider-auth.js";
import { composedStreams } from "./provider-streams.js";

/** What an extension passes to `registerProvider`: a models.json-style config, or a complete provider. */
export type ProviderRegistration = ProviderConfig | Provider;

export interface ModelRuntimeOptions {
	/** The credential store (usually `AuthStorage`); wrapped with runtime API keys. */
	credentials: CredentialStore;
	/** Built-in providers (the catalog). */
	builtinProviders: readonly Provider[];
	/** models.json path; `null` disables it. Default `<agentDir>/models.json`. */
	modelsJsonPath?: string | null;
	agentDir?: string;
	authContext?: AuthContext;
	/** Cache of remote catalogs (`FileModelsStore` on `<agentDir>/models-store.json` in the CLI). */
	modelsStore?: ModelsStore;
}

function isProvider(registration: ProviderRegistration): registration is Provider {
	return typeof (registration as Provider).getModels === "function";
}

/**
 * The models a session can use: the built-in catalog, models.json, extension-registered providers
 * and runtime API keys, composed per provider, plus a per-provider availability snapshot.
 */
export class ModelRuntime {
	readonly credentials: RuntimeCredentials;
	readonly models: MutableModels;
	private readonly builtins: Map<string, Provider>;
	private readonly registrations = new Map<string, ProviderRegistration>();
	private readonly modelsJsonPath: string | null;
	private modelsJson: ModelsJson | undefined;
	private modelsJsonError: string | undefined;
	private providerErrors = new Map<string, string>();
	private readonly availability = new Map<string, boolean>();
	private readonly availabilitySeq = new Map<string, number>();
	private readonly availabilityChains = new Map<string, Promise<void>>();

	constructor(options: ModelRuntimeOptions) {
		this.credentials = new RuntimeCredentials(options.credentials);
		this.models = createModels({
			credentials: this.credentials,
			authContext: options.authContext,
			modelsStore: options.modelsStore,
		});
		this.builtins = new Map(options.builtinProviders.map((provider) => [provider.id, provider]));
		this.modelsJsonPath =
			options.modelsJsonPath === undefined
				? join(options.agentDir ?? getAgentDir(), "models.json")
				: options.modelsJsonPath;
		this.reload();
	}

	/** Re-reads models.json (when `/model` opens, on `/reload`) and recomposes every provider. */
	reload(): void {
		const loaded = this.modelsJsonPath === null ? { config: undefined } : loadModelsJson(this.modelsJsonPath);
		this.modelsJson = loaded.config;
		this.modelsJsonError = loaded.error;
		this.providerErrors = new Map();
		this.models.clearProviders();
		for (const id of this.providerIds()) this.composeAndSet(id);
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

	/** Registers (or replaces) an extension provider or overlay; applied after models.json. */
	registerProvider(id: string, registration: ProviderRegistration): void {
		this.registrations.set(id, registration);
		this.providerErrors.delete(id);
		this.composeAndSet(id);
	}

	unregisterProvider(id: string): void {
		this.registrations.delete(id);
		this.providerErrors.delete(id);
		this.models.deleteProvider(id);
		this.composeAndSet(id);
	}

	/** Every chat model of every provider. */
	getAll(): readonly Model[] {
		return this.models.getModels();
	}

	find(provider: string, id: string): Model | undefined {
		return this.models.getModel(provider, id);
	}

	/**
	 * Refreshes dynamic catalogs (stored catalogs are restored first). With `TAU_OFFLINE` set only
	 * the stored catalogs are used. Errors are collected per provider, never thrown.
	 */
	async refreshCatalogs(options: { providers?: readonly string[]; force?: boolean; signal?: AbortSignal } = {}) {
		return this.models.refresh({ ...options, allowNetwork: !isOffline() });
	}

	/**
	 * Asks a provider that lists its models from its server for them now. The network is allowed even
	 * offline: the caller names that server, and the request for the model goes there anyway.
	 */
	async discoverServedModels(providerId: string, signal?: AbortSignal) {
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

	/** Request auth for a model (key and headers), resolved now; undefined when not configured. */
	async getApiKeyAndHeaders(
		model: Model,
		options: { signal?: AbortSignal } = {},
	): Promise<{ apiKey?: string; headers?: Record<string, string | null> } | undefined> {
		const result = await this.models.getAuth(model, options);
		if (!result) return undefined;
		return { apiKey: result.auth.apiKey, headers: result.auth.headers };
	}

	/** Whether the provider's stored credential is an OAuth login. */
	async isUsingOAuth(model: Model): Promise<boolean> {
		return (await this.credentials.read(model.provider))?.type === "oauth";
	}

	/** Whether the last availability refresh found configured auth for the provider. */
	isAvailable(providerId: string): boolean {
		return this.availability.get(providerId) ?? false;
	}

	/** Models of providers with configured auth, per the snapshot; other providers' catalogs are not read. */
	getAvailable(): readonly Model[] {
		return this.models
			.getProviders()
			.filter((provider) => this.isAvailable(provider.id))
			.flatMap((provider) => this.models.getModels(provider.id));
	}

	/**
	 * Re-checks auth for the given providers (default: all), serialized per provider; a result
	 * superseded by a newer refresh of the same provider is discarded.
	 */
	async refreshAvailability(providerIds?: readonly string[]): Promise<void> {
		const ids = providerIds ?? this.models.getProviders().map((provider) => provider.id);
		await Promise.all(ids.map((id) => this.refreshOne(id)));
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
		await this.refreshAvailability([providerId]);
		return credential;
	}

	/** Deletes the stored credential (the way back to environment keys) and refreshes availability. */
	async logout(providerId: string): Promise<void> {
		await this.models.logout(providerId);
		await this.refreshAvailability([providerId]);
	}

	async setRuntimeApiKey(providerId: string, key: string): Promise<void> {
		this.credentials.setRuntimeApiKey(providerId, key);
		await this.refreshAvailability([providerId]);
	}

	async removeRuntimeApiKey(providerId: string): Promise<void> {
		this.credentials.removeRuntimeApiKey(providerId);
		await this.refreshAvailability([providerId]);
	}

	/** Waits for in-flight credential writes (e.g. an OAuth refresh) before the process may exit. */
	async dispose(): Promise<void> {
		await this.credentials.settled();
	}

	private refreshOne(id: string): Promise<void> {
		const seq = (this.availabilitySeq.get(id) ?? 0) + 1;
		this.availabilitySeq.set(id, seq);
		const previous = this.availabilityChains.get(id) ?? Promise.resolve();
		const next = previous.then(async () => {
			let available = false;
			try {
				available = (await this.models.checkAuth(id)) !== undefined;
			} catch {
				available = false;
			}
			if (this.availabilitySeq.get(id) === seq) this.availability.set(id, available);
		});
		this.availabilityChains.set(id, next);
		return next;
	}

	private providerIds(): string[] {
		return [
			...new Set([
				...this.builtins.keys(),
				...Object.keys(this.modelsJson?.providers ?? {}),
				...this.registrations.keys(),
			]),
		];
	}

	private composeAndSet(id: string): void {
		const registration = this.registrations.get(id);
		const native = registration && isProvider(registration) ? registration : undefined;
		const base = native ?? this.builtins.get(id);
		const overlay = registration && !isProvider(registration) ? registration : undefined;
		const config = this.modelsJson?.providers[id];
		if (!config && !overlay) {
			if (base) this.models.setProvider(base);
			return;
		}
		try {
			this.models.setProvider(this.buildProvider(id, base, config, overlay));
		} catch (error) {
			// One broken provider falls back to its un-overlaid definition; the rest are unaffected.
			this.providerErrors.set(id, errorMessage(error));
			if (base) this.models.setProvider(base);
			else this.models.deleteProvider(id);
		}
	}

	private buildProvider(
		id: string,
		base: Provider | undefined,
		config: ProviderConfig | undefined,
		overlay: ProviderConfig | undefined,
	): Provider {
		const start: BaseProvider = {
			id,
			name: base?.name,
			models: base?.getModels() ?? [],
			hasApiKeyAuth: base?.auth.apiKey !== undefined,
			hasOAuth: base?.auth.oauth !== undefined,
		};
		let composed = composeProvider(start, config);
		if (overlay) composed = applyOverlay(composed, overlay);
		const baseUrl = overlay?.baseUrl ?? config?.baseUrl ?? base?.baseUrl;
		const listServedModels = base?.refreshModels ? servedModelLister(base) : undefined;
		return createProvider({
			id,
			name: composed.name,
			...(baseUrl !== undefined ? { baseUrl } : {}),
			auth: composedAuth(base?.auth, composed),
			models: composed.models,
			api: composedStreams(base),
			...(listServedModels ? { fetchModels: listServedModels } : {}),
		});
	}
}

/**
 * A provider that lists its models from its server (a local one) keeps doing so under models.json: its own
 * refresh runs against the configured base URL, and what it would publish becomes the composed list.
 */
function servedModelLister(base: Provider): (context: RefreshModelsContext) => Promise<readonly AnyModel[]> {
	return async (context) => {
		let listed: readonly AnyModel[] = [];
		await base.refreshModels?.({
			...context,
			stored: undefined,
			publish: async ({ persist }) => {
				if (persist?.models) listed = persist.models;
				return false;
			},
		});
		return listed;
	};
}

/** An extension overlay: `models` replace the list; a registration with only baseUrl/headers keeps it. */
function applyOverlay(composed: ComposedProvider, overlay: ProviderConfig): ComposedProvider {
	const layered = composeProvider(
		{
			id: composed.id,
			name: composed.name,
			models: composed.models,
			hasApiKeyAuth: composed.hasApiKeyAuth,
			hasOAuth: composed.hasOAuth,
		},
		overlay,
	);
	if (overlay.models) {
		const ids = new Set(overlay.models.map((model) => model.id));
		layered.models = layered.models.filter((model) => ids.has(model.id));
	}
	return {
		...layered,
		apiKey: overlay.apiKey ?? composed.apiKey,
		headers: composed.headers || overlay.headers ? { ...composed.headers, ...overlay.headers } : undefined,
		authHeader: overlay.authHeader ?? composed.authHeader,
	};
}
