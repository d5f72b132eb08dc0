import type { AgentMessage } from "@tau/agent";
import type { Api, Model } from "@tau/ai";
import type { SummaryCompletion } from "../compaction/index.js";
import { appendVirtualModelState, type SessionManager } from "../session/index.js";
import type { SessionThinkingLevel } from "./model-selection.js";
import type { SessionPersistence } from "./persistence.js";
import type { RunState } from "./run-loop.js";
import type { RoutedRequest, VirtualModels } from "./virtual-models.js";

export interface RoutingHost {
	readonly virtualModels: VirtualModels;
	readonly sessionManager: SessionManager;
	readonly persistence: SessionPersistence;
	readonly run: RunState;
	selected(): Model<Api> | undefined;
	thinkingLevel(): SessionThinkingLevel;
}

/**
 * One loop request under a virtual selection (docs/design/session-runtime.md#loop-hooks): `retry` when a failed response is pending,
 * `user` when a user message follows the last answer, else `continuation`; router state is stored on
 * the branch before the request is sent. Undefined for physical selections.
 */
export async function routeLoopRequest(
	host: RoutingHost,
	messages: AgentMessage[],
	signal: AbortSignal | undefined,
): Promise<RoutedRequest | undefined> {
	const selected = host.selected();
	if (!selected || !host.virtualModels.isVirtual(selected)) return undefined;
	const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
	const failed = host.run.failedResponse;
	host.run.failedResponse = undefined;
	const reason = failed
		? "retry"
		: messages.slice(lastAssistant + 1).some((message) => message.role === "user")
			? "user"
			: "continuation";
	return host.virtualModels.route(
		selected,
		{
			reason,
			thinkingLevel: host.thinkingLevel(),
			messages,
			...(failed ? { failed } : {}),
			...(signal ? { signal } : {}),
		},
		{
			branch: host.sessionManager.getBranch(),
			store: (state) =>
				host.persistence.appendAnnounced(() =>
					appendVirtualModelState(host.sessionManager, selected.provider, selected.id, state),
				),
		},
	);
}

/** Summary calls under a virtual selection are routed with reason `direct` (no router state). */
export function routedCompletion(host: RoutingHost, complete: SummaryCompletion): SummaryCompletion {
	return async (model, context, options) => {
		if (!host.virtualModels.isVirtual(model)) return complete(model, context, options);
		const routed = await host.virtualModels.route(
			model,
			{ reason: "direct", thinkingLevel: host.thinkingLevel(), messages: [] },
			{ branch: host.sessionManager.getBranch(), store: () => {} },
		);
		return complete(routed.model, context, options);
	};
}
