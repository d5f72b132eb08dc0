import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventStream,
	clampThinkingLevel,
	keylessAuth,
	lazyStream,
	type Message,
	type Model,
	ModelsError,
	type ModelThinkingLevel,
	type Provider,
} from "@tau/ai";

/** The api of virtual catalog entries: requests for them fail unless routed first. */
export const VIRTUAL_MODEL_API = "pi-virtual";

/**
 * Why a request is routed: `user` (first request after a user message), `continuation` (after tool
 * results or extension messages), `retry` (after a failure), `direct` (outside the loop: summaries,
 * extension calls).
 */
export type ModelRouteReason = "user" | "continuation" | "retry" | "direct";

/**
 * What a virtual model's router is asked: the selected virtual model, the request context and options, and the
 * router's saved state.
 */
export interface ModelRouteRequest<TState = unknown> {
	/** The selected virtual model. */
	model: Model<Api>;
	/** The selected thinking level; its meaning is the router's. */
	thinkingLevel: ModelThinkingLevel;
	reason: ModelRouteReason;
	/** Physical model and level of the latest successful response in `messages`. */
	previous?: { model: Model<Api>; thinkingLevel?: ModelThinkingLevel };
	/** For `retry`: the failed request, which `messages` no longer contains. */
	failed?: { model: Model<Api>; thinkingLevel?: ModelThinkingLevel; message: AssistantMessage };
	/** Router state last stored on this branch; undefined for `direct` requests. */
	state?: TState;
	messages: readonly Message[];
	signal?: AbortSignal;
}

/** The physical model and thinking level of one request, and optionally new router state. */
export interface ModelRoute<TState = unknown> {
	model: Model<Api>;
	thinkingLevel: ModelThinkingLevel;
	state?: TState;
}

/** A selectable model whose `route` picks a physical model for each request (docs/models.md). */
export interface VirtualModelDefinition<TState = unknown> {
	/** The provider it is listed under; may also list physical models. */
	provider: string;
	/** Must not be the id of a physical model of `provider`. */
	id: string;
	name: string;
	/** Levels offered for selection (default `["off"]`). */
	thinkingLevels?: readonly ModelThinkingLevel[];
	/** Limits shown before the first response (unset: unknown, 0). */
	contextWindow?: number;
	maxTokens?: number;
	input?: ("text" | "image")[];
	route(request: ModelRouteRequest<TState>): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

/** Whether a model (or a message's model) is a virtual catalog entry. */
export function isVirtualModel(model: { api: string }): boolean {
	return model.api === VIRTUAL_MODEL_API;
}

/** The catalog entry of a virtual model. */
export function createVirtualModel(definition: Omit<VirtualModelDefinition, "route">): Model<Api> {
	const levels = definition.thinkingLevels ?? ["off"];
	return {
		id: definition.id,
		name: definition.name,
		api: VIRTUAL_MODEL_API,
		provider: definition.provider,
		baseUrl: "",
		reasoning: levels.some((level) => level !== "off"),
		input: definition.input ?? ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: definition.contextWindow ?? 0,
		maxTokens: definition.maxTokens ?? 0,
	};
}

function unrouted(model: Model<Api>, signal: AbortSignal | undefined): AssistantMessageEventStream {
	return lazyStream(
		model,
		async () => {
			throw new ModelsError("stream", `Virtual model ${model.provider}/${model.id} must be routed first`);
		},
		undefined,
		signal,
	);
}

/**
 * A provider's catalog with virtual models added (they hide a physical chat model of the same id).
 * Without a provider, the result lists only the virtual models and needs no credentials.
 */
export function withVirtualModels(
	providerId: string,
	provider: Provider | undefined,
	virtualModels: readonly Model<Api>[],
): Provider {
	const ids = new Set(virtualModels.map((model) => model.id));
	const physical = () => (provider?.getModels() ?? []).filter((model) => !ids.has(model.id));
	return {
		...provider,
		id: providerId,
		name: provider?.name ?? providerId,
		auth: provider?.auth ?? { apiKey: keylessAuth(providerId) },
		getModels: () => [...physical(), ...virtualModels],
		getAllModels: () => [
			...(provider?.getAllModels?.() ?? provider?.getModels() ?? []).filter((model) => !ids.has(model.id)),
			...virtualModels,
		],
		stream: (model, context, options) =>
			isVirtualModel(model) || !provider
				? unrouted(model, options?.signal)
				: provider.stream(model, context, options),
		streamSimple: (model, context, options) =>
			isVirtualModel(model) || !provider
				? unrouted(model, options?.signal)
				: provider.streamSimple(model, context, options),
	} as Provider;
}

/** The latest answer in a conversation: failed and aborted requests (and failed routing) do not count. */
export function latestResponse(messages: readonly Message[]): AssistantMessage | undefined {
	return messages.findLast(
		(message): message is AssistantMessage =>
			message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted",
	);
}

/** What the caller of one routing decision knows: why, at which level, the failed attempt and the branch's router state. */
export interface VirtualRouteOptions {
	reason: ModelRouteReason;
	thinkingLevel: ModelThinkingLevel;
	signal?: AbortSignal;
	failed?: AssistantMessage;
	state?: unknown;
}

/**
 * One routing decision (docs/models.md): the router sees the latest successful response and, for a
 * retry, the failed one; its route must name a physical model whose provider has credentials, and the
 * thinking level is clamped to that model. Throws when routing fails.
 */
export async function routeVirtualModel(
	definition: VirtualModelDefinition<unknown>,
	model: Model<Api>,
	messages: readonly Message[],
	options: VirtualRouteOptions,
	catalog: {
		physicalModel(provider: string, id: string): Model<Api> | undefined;
		hasCredentials(provider: string): Promise<boolean>;
	},
): Promise<ModelRoute> {
	const name = `Virtual model ${model.provider}/${model.id}`;
	const { failed, ...request } = options;
	const latest = latestResponse(messages);
	const previous = latest && catalog.physicalModel(latest.provider, latest.model);
	const failedModel = failed && catalog.physicalModel(failed.provider, failed.model);
	const route = await definition.route({
		...request,
		model,
		messages,
		...(previous ? { previous: { model: previous, thinkingLevel: latest?.thinkingLevel } } : {}),
		...(failed && failedModel
			? { failed: { model: failedModel, thinkingLevel: failed.thinkingLevel, message: failed } }
			: {}),
	} as ModelRouteRequest);
	const routed = `${name} routed to ${route.model.provider}/${route.model.id}`;
	const target = catalog.physicalModel(route.model.provider, route.model.id);
	if (!target) throw new Error(`${routed}, which is not a physical model.`);
	if (!(await catalog.hasCredentials(target.provider))) throw new Error(`${routed}, which has no credentials.`);
	return { model: target, thinkingLevel: clampThinkingLevel(target, route.thinkingLevel), state: route.state };
}
