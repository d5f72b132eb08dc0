import type { AssistantMessage } from "@tau/ai";
import type { AgentLoopConfig } from "../types/config.js";
import type { AgentContext } from "../types/context.js";
import type { AgentTool, AgentToolCall, AgentToolCallOutcome, AgentToolResult } from "../types/tools.js";

/** Everything one tool call needs besides the call itself; shared by the loop's batches and `runToolCall`. */
export interface ToolPipeline {
	tools: readonly AgentTool<any>[];
	assistantMessage: AssistantMessage;
	context: AgentContext;
	signal?: AbortSignal;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
}

/** Receives partial results from `execute()`; the returned promise is awaited before finalization. */
export type ToolUpdateSink = (partialResult: AgentToolResult<any>) => Promise<void> | void;

export const OPERATION_ABORTED = "Operation aborted";

export function errorResult(text: string): AgentToolResult<any> {
	return { content: [{ type: "text", text }], details: {} };
}

/** A result produced without running the tool (abort, lookup, validation, block, truncation). */
export function immediateOutcome(toolCall: AgentToolCall, text: string, terminate = false): AgentToolCallOutcome {
	const result = errorResult(text);
	if (terminate) result.terminate = true;
	return { toolCall, result, isError: true };
}
