import { errorMessage } from "../error-message.js";
import type { AgentToolCallOutcome, AgentToolResult } from "../types/tools.js";
import { errorResult, type ToolUpdateSink } from "./pipeline.js";
import type { PreparedToolCall } from "./prepare.js";

/**
 * Runs `execute()` and measures it. Updates are forwarded while `execute()` is pending, ignored after it
 * settles, and all forwarded updates are awaited before the outcome is returned.
 */
export async function executePreparedToolCall(
	prepared: PreparedToolCall,
	signal: AbortSignal | undefined,
	onUpdate: ToolUpdateSink | undefined,
): Promise<AgentToolCallOutcome> {
	const { toolCall, tool, args } = prepared;
	const updates: Promise<void>[] = [];
	let accepting = true;
	const forward = (partialResult: AgentToolResult<any>): void => {
		if (!accepting || !onUpdate) return;
		const delivered = new Promise<void>((resolve) => resolve(onUpdate(partialResult)));
		// Marked handled now; a failing sink still surfaces when the updates are awaited below.
		delivered.catch(() => {});
		updates.push(delivered);
	};
	const started = performance.now();
	let outcome: AgentToolCallOutcome;
	try {
		const result = await tool.execute(toolCall.id, args, signal, forward);
		outcome = { toolCall, result, isError: result.isError === true, durationMs: elapsed(started) };
	} catch (error) {
		outcome = { toolCall, result: errorResult(errorMessage(error)), isError: true, durationMs: elapsed(started) };
	}
	accepting = false;
	await Promise.all(updates);
	return outcome;
}

function elapsed(started: number): number {
	return Math.round(performance.now() - started);
}
