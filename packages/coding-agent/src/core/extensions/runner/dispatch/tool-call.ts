import type { ToolCallEvent, ToolCallEventResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

export const DEFAULT_BLOCK_REASON = "Tool execution was blocked";

/** The outcome of the `tool_call` gate: `reason` is the error text of a blocked call. */
export type ToolCallDecision = { block: false } | { block: true; reason: string; terminate: boolean };

/**
 * `tool_call` gate: handlers may mutate `event.input` in place (seen by later handlers and by the
 * execution); the first block wins. Fail-closed: a throwing handler blocks the call with its message.
 */
export async function dispatchToolCall(
	host: DispatchHost,
	event: ToolCallEvent,
	signal?: AbortSignal,
): Promise<ToolCallDecision> {
	const handlers = host.handlers("tool_call");
	if (handlers.length === 0) return { block: false };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		let result: ToolCallEventResult | undefined;
		try {
			result = (await handler(event, ctx)) as ToolCallEventResult | undefined;
		} catch (error) {
			// Reported too (tau deviation #3); pi only blocks.
			host.report(extensionPath, "tool_call", error);
			const reason =
				error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}`;
			return { block: true, reason, terminate: false };
		}
		if (signal?.aborted) return { block: true, reason: "Operation aborted", terminate: false };
		if (result?.block === true) {
			return { block: true, reason: result.reason ?? DEFAULT_BLOCK_REASON, terminate: result.terminate === true };
		}
	}
	return { block: false };
}
