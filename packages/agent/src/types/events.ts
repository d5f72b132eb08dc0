import type { AssistantMessageEvent, ToolResultMessage } from "@tau/ai";
import type { AgentMessage } from "./messages.js";

/** Everything a loop run reports, in order: run, turn and message boundaries, streaming deltas and tool executions. */
export type AgentEvent =
	| { type: "agent_start" }
	/** Only the messages created by this run, not the full transcript. */
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	/** Streaming assistant message only; `assistantMessageEvent.partial` is live, do not retain it. */
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: any }
	| {
			type: "tool_execution_update";
			toolCallId: string;
			toolName: string;
			args: any;
			partialResult: any;
	  }
	| {
			type: "tool_execution_end";
			toolCallId: string;
			toolName: string;
			result: any;
			isError: boolean;
			durationMs?: number;
	  };

/** Receives every event of a run; `runAgentLoop` awaits it (the sink is the barrier). */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;
