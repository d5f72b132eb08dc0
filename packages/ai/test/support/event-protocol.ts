import type { AssistantMessageEvent } from "@tau/ai";

/**
 * Checks a recorded event sequence against the streaming grammar (docs/design/ai-adapters.md#event-order) and returns the violations:
 * `start update* (done|error)` or a bare `error`; blocks started, grown and ended in order; `contentIndex`
 * addresses the final content array; every started block ends before `done`; terminal reasons match.
 */
export function protocolViolations(events: readonly AssistantMessageEvent[]): string[] {
	const problems: string[] = [];
	const terminal = events.at(-1);
	if (!terminal || (terminal.type !== "done" && terminal.type !== "error"))
		problems.push("last event is not terminal");
	const terminalCount = events.filter((e) => e.type === "done" || e.type === "error").length;
	if (terminalCount !== 1) problems.push(`expected exactly one terminal event, got ${terminalCount}`);
	if (events.length > 1 && events[0]?.type !== "start") problems.push("first event is not start");
	if (events.length === 1 && terminal?.type === "done") problems.push("done without start");
	const open = new Map<number, string>();
	const ended = new Set<number>();
	const final = terminal?.type === "done" ? terminal.message : terminal?.type === "error" ? terminal.error : undefined;
	for (const [position, event] of events.entries()) {
		if (event.type === "start") {
			if (position !== 0) problems.push(`start at position ${position}`);
			continue;
		}
		if (event.type === "done" || event.type === "error") continue;
		const [kind, phase] = event.type.split("_") as [string, string];
		const index = event.contentIndex;
		if (phase === "start") {
			if (open.has(index) || ended.has(index)) problems.push(`block ${index} started twice`);
			open.set(index, kind);
		} else if (open.get(index) !== kind) {
			problems.push(`${event.type} for block ${index} that is not an open ${kind} block`);
		} else if (phase === "end") {
			open.delete(index);
			ended.add(index);
		}
		const block = final?.content[index];
		const expected = kind === "toolcall" ? "toolCall" : kind;
		if (block?.type !== expected) problems.push(`${event.type} index ${index} does not address a ${expected} block`);
	}
	if (final?.stopReason === "pending") problems.push("terminal message is still pending");
	if (terminal?.type === "done") {
		if (open.size > 0) problems.push(`blocks ${[...open.keys()].join(",")} not ended before done`);
		if (terminal.reason !== terminal.message.stopReason) problems.push("done.reason differs from stopReason");
	}
	if (terminal?.type === "error") {
		if (terminal.reason !== terminal.error.stopReason) problems.push("error.reason differs from stopReason");
		if (!terminal.error.errorMessage) problems.push("error without errorMessage");
	}
	return problems;
}
