export { Agent } from "./agent.js";
export { placeholderModel } from "./agent-state.js";
export { runAgentLoop, runAgentLoopContinue } from "./loop/agent-loop.js";
export { type AgentEventStream, agentLoop, agentLoopContinue } from "./loop/observed-loop.js";
export { streamProxy } from "./proxy/stream-proxy.js";
export type { ProxyAssistantMessageEvent, ProxyStreamOptions } from "./proxy/types.js";
export { setDefaultStreamFn } from "./stream-fn/default-stream-fn.js";
export { DEFAULT_AGENT_IDENTITY } from "./stream-fn/identity.js";
export { type RunToolCallOptions, runToolCall } from "./tools/run-tool-call.js";
export type { AgentLoopConfig, StreamFn } from "./types/config.js";
export type { AgentContext } from "./types/context.js";
export type { AgentEvent, AgentEventSink } from "./types/events.js";
export type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentLoopTurnUpdate,
	AgentRequestUpdate,
	AgentTurnContext,
	AgentTurnDecision,
	BeforeToolCallContext,
	BeforeToolCallResult,
	FinishTurn,
	PrepareNextTurnContext,
	PrepareRequest,
	PrepareRequestContext,
} from "./types/hooks.js";
export type { AgentMessage, CustomAgentMessages, QueueMode, ThinkingLevel } from "./types/messages.js";
export type { AgentListener, AgentOptions, AgentState } from "./types/state.js";
export type {
	AgentTool,
	AgentToolCall,
	AgentToolCallOutcome,
	AgentToolParams,
	AgentToolResult,
	AgentToolUpdateCallback,
	ToolExecutionMode,
} from "./types/tools.js";
