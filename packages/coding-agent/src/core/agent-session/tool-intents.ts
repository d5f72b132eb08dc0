import type { AgentTool } from "@tau/agent";
import type { ToolCall, ToolResultMessage } from "@tau/ai";
import { errorMessage } from "../errors.js";
import type { SessionEntry, SessionManager } from "../session/index.js";

export const TOOL_INTENT_TYPE = "tau.tool-intent";

export const INTERRUPTED_TEXT =
	"Tool execution was interrupted before its result was recorded; the outcome is unknown. Check the actual state before retrying.";
export const NEVER_STARTED_TEXT =
	"Tool execution never started: the session ended before this call ran. Nothing was executed.";

export interface ToolIntent {
	toolCallId: string;
	toolName: string;
	replay: "safe" | "never";
}

/** A tool call on the branch that has no result: what recovery must do with it. */
export interface UnansweredCall {
	call: ToolCall;
	intent: ToolIntent | undefined;
}

export function recordToolIntent(manager: SessionManager, intent: ToolIntent): void {
	manager.appendCustomEntry<ToolIntent>(TOOL_INTENT_TYPE, intent);
}

/**
 * Tool calls of the current branch without a tool result, with the intent recorded for each. One pass
 * (a result may follow its call anywhere on the branch, so calls are checked once it is read).
 */
export function findUnansweredCalls(branch: readonly SessionEntry[]): UnansweredCall[] {
	const answered = new Set<string>();
	const intents = new Map<string, ToolIntent>();
	const calls: ToolCall[] = [];
	for (const entry of branch) {
		if (entry.type === "custom" && entry.customType === TOOL_INTENT_TYPE) {
			const intent = entry.data as ToolIntent | undefined;
			if (intent?.toolCallId) intents.set(intent.toolCallId, intent);
		}
		if (entry.type !== "message") continue;
		const message = entry.message;
		if (message.role === "toolResult") answered.add(message.toolCallId);
		// Failed and aborted responses never run their calls, and requests drop them: nothing to answer.
		if (message.role !== "assistant" || message.stopReason === "error" || message.stopReason === "aborted") continue;
		for (const block of message.content) if (block.type === "toolCall") calls.push(block);
	}
	return calls.filter((call) => !answered.has(call.id)).map((call) => ({ call, intent: intents.get(call.id) }));
}

/** Safe to re-run: both the recorded intent and the tool as registered now declare `replay: "safe"`. */
export function isReplayable(unanswered: UnansweredCall, tool: AgentTool<any> | undefined): boolean {
	return unanswered.intent?.replay === "safe" && tool?.replay === "safe";
}

/** The persisted result of a call whose outcome is unknown (or that never started). */
export function interruptedResult(unanswered: UnansweredCall): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: unanswered.call.id,
		toolName: unanswered.call.name,
		content: [{ type: "text", text: unanswered.intent ? INTERRUPTED_TEXT : NEVER_STARTED_TEXT }],
		details: { interrupted: true },
		isError: true,
		timestamp: Date.now(),
	};
}

/** Re-runs a replay-safe call; a failure becomes an error result, never a throw. */
export async function replayCall(unanswered: UnansweredCall, tool: AgentTool<any>): Promise<ToolResultMessage> {
	const { call } = unanswered;
	try {
		const args = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
		const result = await tool.execute(call.id, args);
		const message: ToolResultMessage = {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: result.content,
			details: result.details,
			isError: result.isError === true,
			timestamp: Date.now(),
		};
		return message;
	} catch (error) {
		return {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [{ type: "text", text: errorMessage(error) }],
			details: { replayed: true },
			isError: true,
			timestamp: Date.now(),
		};
	}
}
