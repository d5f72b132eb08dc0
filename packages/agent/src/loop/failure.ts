import { type AssistantMessage, type Model, zeroUsage } from "@tau/ai";
import type { AgentEvent } from "../types/events.js";

/** The stand-in assistant message for a run that failed outside the model's own error path. */
export function createFailureMessage(
	model: Model<any>,
	errorMessage: string,
	aborted: boolean,
	content: AssistantMessage["content"] = [{ type: "text", text: "" }],
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: zeroUsage(),
		stopReason: aborted ? "aborted" : "error",
		errorMessage,
		timestamp: Date.now(),
	};
}

/** The minimal well-formed ending of a run that rejected: message, turn end, agent end. */
export function failureSequence(failure: AssistantMessage): AgentEvent[] {
	return [
		{ type: "message_start", message: failure },
		{ type: "message_end", message: failure },
		{ type: "turn_end", message: failure, toolResults: [] },
		{ type: "agent_end", messages: [failure] },
	];
}
