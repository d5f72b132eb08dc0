import { errorMessage } from "../error-message.js";
import type { AgentToolCallOutcome, AgentToolResult } from "../types/tools.js";
import { executePreparedToolCall } from "./execute.js";
import { errorResult, type ToolPipeline, type ToolUpdateSink } from "./pipeline.js";
import type { PreparedToolCall } from "./prepare.js";

/**
 * Applies `afterToolCall` field by field (no deep merge). Replacing `content` without returning
 * `structuredContent` drops the old structured content, which may no longer match the new text.
 */
export async function finalizeExecutedToolCall(
	prepared: PreparedToolCall,
	executed: AgentToolCallOutcome,
	pipeline: ToolPipeline,
): Promise<AgentToolCallOutcome> {
	if (!pipeline.afterToolCall) return executed;
	const { toolCall, durationMs } = executed;
	try {
		const override = await pipeline.afterToolCall(
			{
				assistantMessage: pipeline.assistantMessage,
				toolCall,
				args: prepared.args,
				context: pipeline.context,
				result: executed.result,
				isError: executed.isError,
			},
			pipeline.signal,
		);
		if (!override) return executed;
		const result: AgentToolResult<any> = { ...executed.result };
		if (override.content != null) result.content = override.content;
		if (override.details != null) result.details = override.details;
		if (override.usage != null) result.usage = override.usage;
		if (override.terminate != null) result.terminate = override.terminate;
		if (override.structuredContent !== undefined) result.structuredContent = override.structuredContent;
		else if (override.content != null) delete result.structuredContent;
		let isError = executed.isError;
		if (override.isError != null) {
			isError = override.isError;
			result.isError = override.isError;
		}
		return { toolCall, result, isError, durationMs };
	} catch (error) {
		return { toolCall, result: errorResult(errorMessage(error)), isError: true, durationMs };
	}
}

/** The part of the pipeline that runs after a call was allowed: execute, then finalize. */
export async function executeAndFinalize(
	prepared: PreparedToolCall,
	pipeline: ToolPipeline,
	onUpdate: ToolUpdateSink | undefined,
): Promise<AgentToolCallOutcome> {
	const executed = await executePreparedToolCall(prepared, pipeline.signal, onUpdate);
	return finalizeExecutedToolCall(prepared, executed, pipeline);
}
