import type { ToolResultMessage } from "@tau/ai";
import type { AgentEventSink } from "../types/events.js";
import type { AgentToolCall, AgentToolCallOutcome } from "../types/tools.js";
import { withCallSignal } from "./call-signal.js";
import { executeAndFinalize } from "./finalize.js";
import { immediateOutcome, OPERATION_ABORTED, type ToolPipeline, type ToolUpdateSink } from "./pipeline.js";
import { type PreparedToolCall, prepareToolCall } from "./prepare.js";
import { toToolResultMessage } from "./result-message.js";

export interface ToolBatchResult {
	/** Tool-result messages in assistant source order (already emitted). */
	messages: ToolResultMessage[];
	/** True when the batch is non-empty and every finalized result asked to terminate. */
	terminate: boolean;
}

export type ToolExecutionStyle = "sequential" | "parallel";

const TRUNCATED_CALL_TEXT = (name: string) =>
	`Tool call "${name}" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.`;

/** One `executionMode: "sequential"` tool serializes the whole batch. */
export function batchExecutionStyle(
	toolCalls: readonly AgentToolCall[],
	pipeline: ToolPipeline,
	configured: ToolExecutionStyle | undefined,
): ToolExecutionStyle {
	if (configured === "sequential") return "sequential";
	const serializing = toolCalls.some(
		(call) => pipeline.tools.find((tool) => tool.name === call.name)?.executionMode === "sequential",
	);
	return serializing ? "sequential" : "parallel";
}

export async function executeToolCalls(
	toolCalls: readonly AgentToolCall[],
	pipeline: ToolPipeline,
	style: ToolExecutionStyle,
	emit: AgentEventSink,
): Promise<ToolBatchResult> {
	const outcomes =
		style === "sequential"
			? await executeSequentially(toolCalls, pipeline, emit)
			: await executeInParallel(toolCalls, pipeline, emit);
	return {
		messages: outcomes.messages,
		terminate: outcomes.all.length > 0 && outcomes.all.every((outcome) => outcome.result.terminate === true),
	};
}

/** A `length`-stopped message may carry silently truncated arguments, so none of its calls runs. */
export async function failTruncatedToolCalls(
	toolCalls: readonly AgentToolCall[],
	emit: AgentEventSink,
): Promise<ToolBatchResult> {
	const messages: ToolResultMessage[] = [];
	for (const toolCall of toolCalls) {
		await emitStart(toolCall, emit);
		const outcome = immediateOutcome(toolCall, TRUNCATED_CALL_TEXT(toolCall.name));
		await emitEnd(outcome, emit);
		messages.push(await emitResultMessage(outcome, emit));
	}
	return { messages, terminate: false };
}

interface BatchOutcomes {
	all: AgentToolCallOutcome[];
	messages: ToolResultMessage[];
}

async function executeSequentially(
	toolCalls: readonly AgentToolCall[],
	pipeline: ToolPipeline,
	emit: AgentEventSink,
): Promise<BatchOutcomes> {
	const all: AgentToolCallOutcome[] = [];
	const messages: ToolResultMessage[] = [];
	for (const toolCall of toolCalls) {
		await emitStart(toolCall, emit);
		const preparation = await prepareToolCall(toolCall, pipeline);
		const outcome =
			preparation.kind === "immediate"
				? preparation.outcome
				: await executeAndFinalize(preparation, pipeline, updateSink(toolCall, emit));
		await emitEnd(outcome, emit);
		all.push(outcome);
		messages.push(await emitResultMessage(outcome, emit));
	}
	return { all, messages };
}

/**
 * Preflight runs one call at a time in source order so side-effecting decisions (permission prompts)
 * stay deterministic; allowed calls then execute concurrently and end in completion order; result
 * messages follow in source order.
 */
async function executeInParallel(
	toolCalls: readonly AgentToolCall[],
	pipeline: ToolPipeline,
	emit: AgentEventSink,
): Promise<BatchOutcomes> {
	const slots: (AgentToolCallOutcome | PreparedToolCall)[] = [];
	for (const toolCall of toolCalls) {
		await emitStart(toolCall, emit);
		const preparation = await prepareToolCall(toolCall, pipeline);
		if (preparation.kind === "immediate") {
			await emitEnd(preparation.outcome, emit);
			slots.push(preparation.outcome);
		} else {
			slots.push(preparation);
		}
	}
	const all = await Promise.all(
		slots.map(async (slot) => {
			if (!("kind" in slot)) return slot;
			const outcome = pipeline.signal?.aborted
				? immediateOutcome(slot.toolCall, OPERATION_ABORTED)
				: await withCallSignal(pipeline.signal, (signal) =>
						executeAndFinalize(slot, { ...pipeline, signal }, updateSink(slot.toolCall, emit)),
					);
			await emitEnd(outcome, emit);
			return outcome;
		}),
	);
	const messages: ToolResultMessage[] = [];
	for (const outcome of all) messages.push(await emitResultMessage(outcome, emit));
	return { all, messages };
}

function updateSink(toolCall: AgentToolCall, emit: AgentEventSink): ToolUpdateSink {
	return (partialResult) =>
		emit({
			type: "tool_execution_update",
			toolCallId: toolCall.id,
			toolName: toolCall.name,
			args: toolCall.arguments,
			partialResult,
		});
}

async function emitStart(toolCall: AgentToolCall, emit: AgentEventSink): Promise<void> {
	await emit({
		type: "tool_execution_start",
		toolCallId: toolCall.id,
		toolName: toolCall.name,
		args: toolCall.arguments,
	});
}

async function emitEnd(outcome: AgentToolCallOutcome, emit: AgentEventSink): Promise<void> {
	await emit({
		type: "tool_execution_end",
		toolCallId: outcome.toolCall.id,
		toolName: outcome.toolCall.name,
		result: outcome.result,
		isError: outcome.isError,
		...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
	});
}

async function emitResultMessage(outcome: AgentToolCallOutcome, emit: AgentEventSink): Promise<ToolResultMessage> {
	const message = toToolResultMessage(outcome);
	await emit({ type: "message_start", message });
	await emit({ type: "message_end", message });
	return message;
}
