import type { AgentMessage } from "@tau/agent";
import type { Api, AssistantMessage, Model, ThinkingLevel } from "@tau/ai";
import { isVirtualModel, type ModelRouteReason, type ModelRuntime } from "../../config/index.js";
import { convertToLlm, getVirtualModelState, type SessionEntry, type SessionMessage } from "../session/index.js";

export interface RoutedRequest {
	model: Model<Api>;
	thinkingLevel: ThinkingLevel | "off";
}

/**
 * A session's view of the runtime's virtual models (docs/models.md): loop requests read the router
 * state stored on the branch and store what the router returns; `direct` requests (summaries) do
 * neither. The runtime owns the registrations and validates every route.
 */
export class VirtualModels {
	constructor(private readonly modelRuntime: ModelRuntime) {}

	/** Whether a model is a registered virtual model of the runtime's catalog. */
	isVirtual(model: Pick<Model<Api>, "provider" | "id" | "api"> | undefined): boolean {
		if (!model || !isVirtualModel(model)) return false;
		const listed = this.modelRuntime.getModel(model.provider, model.id);
		return listed !== undefined && isVirtualModel(listed);
	}

	async route(
		virtual: Model<Api>,
		request: {
			reason: ModelRouteReason;
			thinkingLevel: ThinkingLevel | "off";
			messages: readonly AgentMessage[];
			failed?: AssistantMessage;
			signal?: AbortSignal;
		},
		branchState: { branch: readonly SessionEntry[]; store: (state: unknown) => void },
	): Promise<RoutedRequest> {
		const direct = request.reason === "direct";
		const state = direct ? undefined : getVirtualModelState(branchState.branch, virtual.provider, virtual.id);
		const route = await this.modelRuntime.resolveModel(virtual, convertToLlm(request.messages as SessionMessage[]), {
			reason: request.reason,
			thinkingLevel: request.thinkingLevel,
			...(request.signal ? { signal: request.signal } : {}),
			...(request.failed ? { failed: request.failed } : {}),
			...(state !== undefined ? { state } : {}),
		});
		if (!direct && route.state !== undefined && route.state !== state) branchState.store(route.state);
		return { model: route.model, thinkingLevel: route.thinkingLevel as ThinkingLevel };
	}
}
