import type { Agent, AgentMessage, ThinkingLevel } from "@tau/agent";
import type { Api, Model } from "@tau/ai";
import type { SessionManager } from "../session/index.js";
import type { ExtensionBridge } from "./extension-bridge.js";
import { withoutHiddenDeclarations } from "./loadout-hooks.js";
import type { PromptState } from "./prompt-state.js";
import type { OverflowRecovery } from "./recovery-loop.js";

export interface AgentHooksHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly bridge: ExtensionBridge;
	readonly prompts: PromptState;
	readonly overflow: OverflowRecovery;
	hiddenDeclarations(): ReadonlySet<string>;
	hasModel(): boolean;
	/** Routing of a virtual selection for this request only; undefined for physical selections. */
	routeRequest(
		messages: AgentMessage[],
		signal: AbortSignal | undefined,
	): Promise<{ model: Model<Api>; thinkingLevel: ThinkingLevel | "off" } | undefined>;
}

/**
 * The loop hooks (docs/design/session-runtime.md#loop-hooks): every request is re-projected from the session tree (the agent's message
 * array is only a cache), tool gates and boundaries go through the extension bridge, and between
 * turns threshold compaction and system patches keep the transcript current.
 */
export function installAgentHooks(host: AgentHooksHost): void {
	const { agent, bridge, prompts, sessionManager } = host;
	const projected = () => sessionManager.buildSessionProjection().messages as AgentMessage[];
	agent.prepareRequest = async (request, signal) => {
		const messages = projected();
		const context = { messages, tools: request.context.tools ?? agent.state.tools };
		const routed = await host.routeRequest(messages, signal);
		return routed
			? { context, model: routed.model, thinkingLevel: routed.thinkingLevel as ThinkingLevel }
			: { context };
	};
	agent.beforeToolCall = (context, signal) => bridge.beforeToolCall(context, signal);
	agent.afterToolCall = (context) => bridge.afterToolCall(context);
	agent.finishTurn = (turn) => bridge.finishTurn(turn);
	agent.transformContext = async (messages) =>
		prompts.applyForcedPrompt(
			withoutHiddenDeclarations(await bridge.transformContext(messages), host.hiddenDeclarations()),
		);
	agent.prepareNextTurnWithContext = async (turn) => {
		if (host.hasModel()) await host.overflow.compactIfThresholdExceeded(turn.message);
		// After a threshold compaction this is the compacted context; patchFor only reads it.
		const messages = projected();
		const patch = prompts.patchFor(messages);
		return { context: { messages, tools: agent.state.tools }, messages: patch ? [patch] : [] };
	};
}
