import { type Agent, type AgentTool, runToolCall } from "@tau/agent";
import type { AssistantMessage } from "@tau/ai";
import { type ExtensionRunner, NestedToolCallExecutor } from "../extensions/index.js";
import type { AgentSessionEvent } from "./events.js";
import type { ExtensionBridge } from "./extension-bridge.js";

export interface NestedCallsHost {
	readonly agent: Agent;
	readonly bridge: ExtensionBridge;
	runner(): ExtensionRunner;
	callableTools(): AgentTool<any>[];
	currentAssistant(): AssistantMessage | undefined;
	emit(event: AgentSessionEvent): void;
}

/**
 * `ctx.executeTool` for this session: nested calls run through the same pipeline as model calls
 * (validation, `tool_call` gate with `parentToolCallId`, `tool_result`), and their execution events go
 * to extensions first, then to subscribers. They add nothing to the transcript.
 */
export function createNestedCalls(host: NestedCallsHost): NestedToolCallExecutor {
	return new NestedToolCallExecutor({
		callableTools: () => host.callableTools(),
		assistantMessage: () => host.currentAssistant(),
		runToolCall: (toolCall, options) =>
			runToolCall(toolCall, {
				tools: options.tools,
				assistantMessage: options.assistantMessage,
				context: { messages: host.agent.state.messages, tools: [...options.tools] },
				...(options.signal ? { signal: options.signal } : {}),
				onUpdate: options.onUpdate,
				beforeToolCall: (context, signal) => host.bridge.beforeToolCall(context, signal, options.parentToolCallId),
				afterToolCall: (context) => host.bridge.afterToolCall(context, options.parentToolCallId),
			}),
		emit: async (event) => {
			await host.runner().emit(event as unknown as { type: string; [key: string]: unknown });
			host.emit(event as unknown as AgentSessionEvent);
		},
		sequentialExecution: () => host.agent.toolExecution === "sequential",
	});
}
