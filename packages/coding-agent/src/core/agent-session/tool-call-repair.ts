import type { AgentTool } from "@tau/agent";
import type { ToolResultMessage } from "@tau/ai";
import type { SessionManager } from "../session/index.js";
import type { SessionPersistence } from "./persistence.js";
import { findUnansweredCalls, interruptedResult, isReplayable, replayCall } from "./tool-intents.js";

type ToolLookup = (name: string) => AgentTool<any> | undefined;

/**
 * On opening a session: every tool call on the branch without a result gets a persisted
 * "interrupted, outcome unknown" (or "never started") error result, except replay-safe calls, which
 * wait for `replaySafeCalls` at the first run. Returns how many results were appended.
 */
export function repairInterruptedCalls(
	manager: SessionManager,
	lookup: ToolLookup,
	persistence: SessionPersistence,
): number {
	// A read-only view (another process holds the session) cannot record anything; its writer repairs.
	if (manager.isReadOnly()) return 0;
	const pending = findUnansweredCalls(manager.getBranch()).filter(
		(call) => !isReplayable(call, lookup(call.call.name)),
	);
	if (pending.length === 0) return 0;
	persistence.appendAnnounced(
		() => {
			for (const call of pending) manager.appendMessage(interruptedResult(call));
		},
		{ tauOnly: true },
	);
	return pending.length;
}

/** Before the first request of a resumed session: re-runs replay-safe calls and persists their results. */
export async function replaySafeCalls(
	manager: SessionManager,
	lookup: ToolLookup,
	persistence: SessionPersistence,
): Promise<boolean> {
	if (manager.isReadOnly()) return false;
	const calls = findUnansweredCalls(manager.getBranch());
	if (calls.length === 0) return false;
	const results: ToolResultMessage[] = [];
	for (const call of calls) {
		const tool = lookup(call.call.name);
		results.push(tool && isReplayable(call, tool) ? await replayCall(call, tool) : interruptedResult(call));
	}
	persistence.appendAnnounced(
		() => {
			for (const result of results) manager.appendMessage(result);
		},
		{ tauOnly: true },
	);
	return true;
}
