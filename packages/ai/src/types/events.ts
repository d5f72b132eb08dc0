import type { ToolCall } from "./content.js";
import type { AssistantMessage } from "./messages.js";

/**
 * The streaming protocol: `start update* (done|error)`, or a bare `error` on setup failure.
 * `partial` is the adapter's live working message (mutated in place), not a snapshot.
 */
export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: "stop" | "length" | "toolUse" | "deferred"; message: AssistantMessage }
	| { type: "error"; reason: "error" | "aborted"; error: AssistantMessage };

/** The `type` of any streaming event (`start`, `text_delta`, `toolcall_end`, `done`, …). */
export type AssistantMessageEventType = AssistantMessageEvent["type"];
