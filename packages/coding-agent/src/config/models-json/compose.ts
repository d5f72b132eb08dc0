import type { Model } from "@tau/ai";
import { mergeHeaders } from "./headers.js";
import { applyModelOverride, mergeCompat } from "./model-overrides.js";
import type { ModelDefinition, ProviderConfig } from "./schema.js";

const DEFAULT_CONTEXT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 16_384;

/** What a provider offers before models.json applies. */
export interface BaseProvider {
	id: string;
	name?: string;
	models: readonly Model[];
	hasApiKeyAuth: boolean;
	hasOAuth: boolean;
}

/** A provider after models.json: its models, and the request settings the runtime applies. */
export interface ComposedProvider {
	id: string;
	name: string;
	models: Model[];
	/** Provider-level `apiKey` reference (resolved per request, uncached). */
	apiKey?: string;
	/** Provider-level header references (resolved per request). */
	headers?: Record<string, string>;
	authHeader: boolean;
	hasApiKeyAuth: boolean;
	hasOAuth: boolean;
	/** For `oauth: "radius"`: the gateway origin (`baseUrl` without a trailing `/v1`). */
	radiusGatewayOrigin?: string;
}

function isChat(model: Model): boolean {
	return model.type === undefined || model.type === "chat";
}

/** Applies one models.json provider entry to a provider; throws the documented composition errors. */
export function composeProvider(base: BaseProvider, config: ProviderConfig | undefined): ComposedProvider {
	const composed: ComposedProvider = {
		id: base.id,
		name: base.name ?? base.id,
		models: [...base.models],
		authHeader: false,
		hasApiKeyAuth: base.hasApiKeyAuth,
		hasOAuth: base.hasOAuth,
	};
	if (!config) return composed;
	const id = base.id;
	if (config.oauth && !config.baseUrl) throw new Error(`Provider ${id}: "baseUrl" is required when "oauth" is set.`);
	const specifiesSomething =
		(config.models?.length ?? 0) > 0 ||
		config.baseUrl !== undefined ||
		config.headers !== undefined ||
		config.compat !== undefined ||
		Object.keys(config.modelOverrides ?? {}).length > 0 ||
		config.apiKey !== undefined ||
		config.oauth !== undefined ||
		config.authHeader !== undefined;
	if (!specifiesSomething) {
		throw new Error(`Provider ${id}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`);
	}
	const radius = config.oauth === "radius";
	let models = base.models.map((model) => {
		if (!isChat(model)) return config.compat ? { ...model, compat: mergeCompat(model.compat, config.compat) } : model;
		const next: Model = { ...model };
		if (config.baseUrl && !radius) next.baseUrl = config.baseUrl;
		if (config.compat) next.compat = mergeCompat(model.compat, config.compat) as Model["compat"];
		return next;
	});
	for (const definition of config.models ?? []) {
		const model = defineModel(id, definition, config, models);
		const index = models.findIndex((existing) => isChat(existing) && existing.id === definition.id);
		if (index >= 0) models[index] = model;
		else models.push(model);
	}
	for (const [modelId, override] of Object.entries(config.modelOverrides ?? {})) {
		const definition = config.models?.find((entry) => entry.id === modelId);
		models = models.map((model) => {
			if (!isChat(model) || model.id !== modelId) return model;
			const overridden = applyModelOverride(model, override);
			// A model definition's own headers beat its override's headers.
			const headers = mergeHeaders(override.headers, definition?.headers);
			return headers ? { ...overridden, headers } : overridden;
		});
	}
	composed.models = models;
	composed.name = config.name ?? composed.name;
	composed.apiKey = config.apiKey;
	composed.headers = config.headers ? { ...config.headers } : undefined;
	composed.authHeader = config.authHeader ?? false;
	composed.hasApiKeyAuth = base.hasApiKeyAuth || config.apiKey !== undefined;
	composed.hasOAuth = base.hasOAuth || radius;
	if (radius) composed.radiusGatewayOrigin = config.baseUrl!.replace(/\/v1\/?$/, "");
	if (!composed.hasApiKeyAuth && !composed.hasOAuth) {
		throw new Error(`Provider ${id}: no authentication method configured.`);
	}
	return composed;
}

function defineModel(
	providerId: string,
	definition: ModelDefinition,
	config: ProviderConfig,
	models: readonly Model[],
): Model {
	const chat = models.filter(isChat);
	const requestedApi = definition.api ?? config.api;
	const defaults =
		chat.find((model) => model.id === definition.id) ??
		(requestedApi ? chat.find((model) => model.api === requestedApi) : undefined) ??
		chat.find((model) => model.api === "openai-completions") ??
		chat[0];
	const api = requestedApi ?? defaults?.api;
	if (!api) {
		throw new Error(
			`Provider ${providerId}, model ${definition.id}: no "api" specified. Set at provider or model level.`,
		);
	}
	const baseUrl = definition.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
	if (!baseUrl) throw new Error(`Provider ${providerId}: "baseUrl" is required when defining custom models.`);
	const contextWindow = definition.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
	const maxTokens = definition.maxTokens ?? DEFAULT_MAX_TOKENS;
	if (!(contextWindow > 0)) throw new Error(`Provider ${providerId}, model ${definition.id}: invalid contextWindow`);
	if (!(maxTokens > 0)) throw new Error(`Provider ${providerId}, model ${definition.id}: invalid maxTokens`);
	const model: Model = {
		id: definition.id,
		name: definition.name ?? definition.id,
		api,
		provider: providerId,
		baseUrl,
		reasoning: definition.reasoning ?? false,
		input: definition.input ? [...definition.input] : ["text"],
		cost: definition.cost ? { ...definition.cost } : { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens,
	};
	if (definition.thinkingLevelMap) model.thinkingLevelMap = { ...definition.thinkingLevelMap };
	if (definition.inputLimits) model.inputLimits = structuredClone(definition.inputLimits);
	if (definition.promptCache) model.promptCache = { ...definition.promptCache };
	if (definition.samplingParams) model.samplingParams = { ...definition.samplingParams };
	if (definition.samplingParamsByThinkingLevel) {
		model.samplingParamsByThinkingLevel = structuredClone(definition.samplingParamsByThinkingLevel);
	}
	if (definition.headers) model.headers = { ...definition.headers };
	const compat = mergeCompat(config.compat, definition.compat);
	if (compat) model.compat = compat as Model["compat"];
	return model;
}
