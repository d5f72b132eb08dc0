import type { ToolResultEvent, ToolResultEventResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

/**
 * `tool_result` middleware: each defined field of a handler's patch replaces the current value on the
 * shared event; replacing `content` without `structuredContent` drops the structured content. A
 * throwing handler's patch is discarded (fail-open, pi compatible).
 */
export async function dispatchToolResult(host: DispatchHost, event: ToolResultEvent): Promise<ToolResultEvent> {
	const handlers = host.handlers("tool_result");
	if (handlers.length === 0) return event;
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		let patch: ToolResultEventResult | undefined;
		try {
			patch = (await handler(event, ctx)) as ToolResultEventResult | undefined;
		} catch (error) {
			host.report(extensionPath, "tool_result", error);
			continue;
		}
		if (!patch || typeof patch !== "object") continue;
		if (patch.content !== undefined) {
			event.content = patch.content;
			if (patch.structuredContent === undefined) delete event.structuredContent;
		}
		if (patch.structuredContent !== undefined) event.structuredContent = patch.structuredContent;
		if (patch.details !== undefined) event.details = patch.details;
		if (patch.isError !== undefined) event.isError = patch.isError;
		if (patch.usage !== undefined) event.usage = patch.usage;
	}
	return event;
}
