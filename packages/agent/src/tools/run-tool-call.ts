import type { AssistantMessage } from "@tau/ai";
import type { AgentLoopConfig } from "../types/config.js";
import type { AgentContext } from "../types/context.js";
import type { AgentTool, AgentToolCall, AgentToolCallOutcome, AgentToolResult } from "../types/tools.js";
import { withCallSignal } from "./call-signal.js";
import { executeAndFinalize } from "./finalize.js";
import { prepareToolCall } from "./prepare.js";

/** Options of `runToolCall`: the tool set, the issuing message and context, the hooks and the abort signal. */
export interface RunToolCallOptions {
	tools: readonly AgentTool<any>[];
	/** Passed to hooks as the issuing message. */
	assistantMessage: AssistantMessage;
	/** Passed to hooks. */
	context: AgentContext;
	signal?: AbortSignal;
	onUpdate?: (partialResult: AgentToolResult<any>) => Promise<void> | void;
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
}

/**
 * Runs one (nested) tool call through the full pipeline so permission hooks apply, without emitting
 * events or creating messages. Tool failures come back as `isError: true`, never as a rejection.
 */
export async function runToolCall(toolCall: AgentToolCall, options: RunToolCallOptions): Promise<AgentToolCallOutcome> {
	// Nested calls often run side by side (a script's Promise.all): each gets its own signal.
	return withCallSignal(options.signal, async (signal) => {
		const pipeline = { ...options, signal };
		const preparation = await prepareToolCall(toolCall, pipeline);
		if (preparation.kind === "immediate") return preparation.outcome;
		return executeAndFinalize(preparation, pipeline, options.onUpdate);
	});
}
