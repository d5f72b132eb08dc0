import { preloadSchemaValidator, validateToolArguments } from "@tau/ai";
import { errorMessage } from "../error-message.js";
import type { AgentTool, AgentToolCall, AgentToolCallOutcome } from "../types/tools.js";
import { immediateOutcome, OPERATION_ABORTED, type ToolPipeline } from "./pipeline.js";

export interface PreparedToolCall {
	kind: "prepared";
	/** The raw block from the assistant message. */
	toolCall: AgentToolCall;
	tool: AgentTool<any>;
	/** Prepared, coerced and validated arguments. */
	args: unknown;
}

export type ToolCallPreparation = PreparedToolCall | { kind: "immediate"; outcome: AgentToolCallOutcome };

function immediate(outcome: AgentToolCallOutcome): ToolCallPreparation {
	return { kind: "immediate", outcome };
}

/**
 * Decides whether a call may run: abort check, lookup, argument preparation, validation and
 * `beforeToolCall`. Every failure is an error result, so a failing hook blocks the call (fail closed).
 */
export async function prepareToolCall(toolCall: AgentToolCall, pipeline: ToolPipeline): Promise<ToolCallPreparation> {
	const { signal } = pipeline;
	if (signal?.aborted) return immediate(immediateOutcome(toolCall, OPERATION_ABORTED));
	const tool = pipeline.tools.find((candidate) => candidate.name === toolCall.name);
	if (!tool) return immediate(immediateOutcome(toolCall, `Tool ${toolCall.name} not found`));
	try {
		let candidate = toolCall;
		if (tool.prepareArguments) {
			const prepared = tool.prepareArguments(toolCall.arguments);
			if (prepared !== toolCall.arguments)
				candidate = { ...toolCall, arguments: prepared as AgentToolCall["arguments"] };
		}
		const validators = preloadSchemaValidator(tool.parameters);
		if (validators) await validators;
		const args: unknown = validateToolArguments(tool, candidate);
		if (pipeline.beforeToolCall) {
			const decision = await pipeline.beforeToolCall(
				{ assistantMessage: pipeline.assistantMessage, toolCall, args, context: pipeline.context },
				signal,
			);
			if (signal?.aborted) return immediate(immediateOutcome(toolCall, OPERATION_ABORTED));
			if (decision?.block === true) {
				const reason = decision.reason || "Tool execution was blocked";
				return immediate(immediateOutcome(toolCall, reason, decision.terminate === true));
			}
		}
		return { kind: "prepared", toolCall, tool, args };
	} catch (error) {
		return immediate(immediateOutcome(toolCall, errorMessage(error)));
	}
}
