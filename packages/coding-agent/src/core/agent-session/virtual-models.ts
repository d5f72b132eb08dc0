import type { AgentMessage } from "@tau/agent";
import { type Api, type AssistantMessage, clampThinkingLevel, type Model, type ThinkingLevel } from "@tau/ai";
import type { ModelRuntime } from "../../config/index.js";
import type { ExtensionRunner, ExtensionVirtualModel, ModelRouteRequest } from "../extensions/index.js";
import { convertToLlm, getVirtualModelState, type SessionEntry, type SessionMessage } from "../session/index.js";

/** The api of virtual model descriptors: they are selectable but never streamed directly. */
export const VIRTUAL_MODEL_API = "virtual";

interface Registration {
	definition: ExtensionVirtualModel<any>;
	descriptor: Model<Api>;
}

const key = (provider: string, id: string) => `${provider}\u0000${id}`;

export interface RoutedRequest {
	model: Model<Api>;
	thinkingLevel: ThinkingLevel | "off";
}

/**
 * Extension virtual models (extensions.md §3.6): selectable names whose `route` picks a physical model
 * per request. Registered per session; routing results name physical models only.
 */
export class VirtualModels {
	private readonly registrations = new Map<string, Registration>();

	constructor(private readonly modelRuntime: ModelRuntime) {}

	register(definition: ExtensionVirtualModel<any>): void {
		if (this.modelRuntime.find(definition.provider, definition.id)) {
			throw new Error(`Virtual model ${definition.provider}/${definition.id} would shadow a physical model`);
		}
		const levels = definition.thinkingLevels ?? ["off"];
		const descriptor: Model<Api> = {
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
		this.registrations.set(key(definition.provider, definition.id), { definition, descriptor });
	}

	unregister(provider: string, id: string): void {
		this.registrations.delete(key(provider, id));
	}

	find(provider: string, id: string): Model<Api> | undefined {
		return this.registrations.get(key(provider, id))?.descriptor;
	}

	list(): Model<Api>[] {
		return [...this.registrations.values()].map((registration) => registration.descriptor);
	}

	isVirtual(model: Pick<Model<Api>, "provider" | "id" | "api"> | undefined): boolean {
		return model?.api === VIRTUAL_MODEL_API && this.registrations.has(key(model.provider, model.id));
	}

	/**
	 * One routing decision. Loop requests (`user` / `continuation` / `retry`) read and store the router
	 * state on the branch; `direct` requests (summaries) neither read nor store it. Routing to a virtual
	 * model or to a provider without credentials throws (the request ends as an error response).
	 */
	async route(
		virtual: Model<Api>,
		request: {
			reason: ModelRouteRequest["reason"];
			thinkingLevel: ThinkingLevel | "off";
			messages: readonly AgentMessage[];
			previous?: AssistantMessage;
			failed?: AssistantMessage;
			signal?: AbortSignal;
		},
		runner: ExtensionRunner,
		branchState: { branch: readonly SessionEntry[]; store: (state: unknown) => void },
	): Promise<RoutedRequest> {
		const registration = this.registrations.get(key(virtual.provider, virtual.id));
		if (!registration) throw new Error(`Virtual model ${virtual.provider}/${virtual.id} is not registered`);
		const direct = request.reason === "direct";
		const state = direct ? undefined : getVirtualModelState(branchState.branch, virtual.provider, virtual.id);
		const physical = (message: AssistantMessage | undefined) => {
			const model = message ? this.modelRuntime.find(message.provider, message.model) : undefined;
			return model && message ? { model, thinkingLevel: message.thinkingLevel as never } : undefined;
		};
		const routeRequest: ModelRouteRequest<unknown> = {
			model: virtual,
			thinkingLevel: request.thinkingLevel as never,
			reason: request.reason,
			messages: convertToLlm(request.messages as SessionMessage[]),
			...(state !== undefined ? { state } : {}),
			...(request.signal ? { signal: request.signal } : {}),
		};
		const previous = physical(request.previous);
		if (previous) routeRequest.previous = previous;
		const failed = physical(request.failed);
		if (failed && request.failed) routeRequest.failed = { ...failed, message: request.failed };
		const route = await registration.definition.route(routeRequest, runner.createContext());
		if (this.isVirtual(route.model) || route.model.api === VIRTUAL_MODEL_API) {
			throw new Error(`Virtual model ${virtual.provider}/${virtual.id} routed to another virtual model`);
		}
		if (!(await this.modelRuntime.models.checkAuth(route.model.provider).catch(() => undefined))) {
			throw new Error(
				`No API key for ${route.model.provider}/${route.model.id} (routed from ${virtual.provider}/${virtual.id})`,
			);
		}
		if (!direct && route.state !== undefined && route.state !== state) {
			branchState.store(route.state);
		}
		return {
			model: route.model,
			thinkingLevel: clampThinkingLevel(route.model, route.thinkingLevel) as ThinkingLevel,
		};
	}
}
