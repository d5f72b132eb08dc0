import type { ToolResultMessage } from "@tau/ai";
import type { AgentToolCallOutcome } from "../types/tools.js";

/** `structuredContent` and `terminate` are runtime-only and never reach the transcript. */
export function toToolResultMessage(outcome: AgentToolCallOutcome): ToolResultMessage {
	const { toolCall, result, isError, durationMs } = outcome;
	const message: ToolResultMessage = {
		role: "toolResult",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		content: result.content ?? [],
		details: result.details,
		isError,
		timestamp: Date.now(),
	};
	if (result.usage !== undefined) message.usage = result.usage;
	if (durationMs !== undefined) message.durationMs = durationMs;
	return message;
}
