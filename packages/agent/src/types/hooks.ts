import type { AssistantMessage, ImageContent, JsonValue, Model, TextContent, ToolResultMessage, Usage } from "@tau/ai";
import type { AgentContext } from "./context.js";
import type { AgentMessage, ThinkingLevel } from "./messages.js";
import type { AgentToolCall, AgentToolResult } from "./tools.js";

/** A `beforeToolCall` answer: `block` skips the tool (with `reason` as its error); `terminate` asks the loop to stop after this batch. */
export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

/** What `beforeToolCall` receives: the requesting message, the raw call, its validated arguments and the context. */
export interface BeforeToolCallContext {
	/** The message that requested the call. */
	assistantMessage: AssistantMessage;
	/** Raw block from `assistantMessage.content` (unprepared arguments). */
	toolCall: AgentToolCall;
	/** Prepared, coerced and validated arguments. */
	args: unknown;
	context: AgentContext;
}

/** What `afterToolCall` receives: the call's context plus the result the tool produced, which the hook may replace. */
export interface AfterToolCallContext extends BeforeToolCallContext {
	/** Executed result before overrides. */
	result: AgentToolResult<any>;
	isError: boolean;
}

/** Field-wise override of an executed result (no deep merge). */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
	terminate?: boolean;
}

/** What `finishTurn` receives after a turn: the assistant message, its tool results and the updated context. */
export interface AgentTurnContext {
	/** Assistant message of the completed turn. */
	message: AssistantMessage;
	/** This turn's tool results in source order. */
	toolResults: ToolResultMessage[];
	/** Context after the tool results were appended. */
	context: AgentContext;
	/** What the loop would return if it exited now. */
	newMessages: AgentMessage[];
}

/** A `finishTurn` verdict: run another turn or end the run. */
export type AgentTurnDecision = { action: "continue" } | { action: "end" };

/**
 * Hook called after each turn that decides whether the loop continues; returning nothing keeps the default decision.
 */
export type FinishTurn = (
	turn: AgentTurnContext,
	signal?: AbortSignal,
) => AgentTurnDecision | void | Promise<AgentTurnDecision | undefined> | Promise<void>;

/** What `prepareNextTurn` may change before the next turn: context, transcript, model or thinking level. */
export interface AgentLoopTurnUpdate {
	context?: AgentContext;
	messages?: AgentMessage[];
	model?: Model<any>;
	thinkingLevel?: ThinkingLevel;
}

/** What `prepareRequest` receives: the context, model and thinking level about to be sent. */
export interface PrepareRequestContext {
	context: AgentContext;
	model: Model<any>;
	thinkingLevel: ThinkingLevel;
}

/** What `prepareRequest` may change for one model request: context, model or thinking level (not the transcript). */
export type AgentRequestUpdate = Omit<AgentLoopTurnUpdate, "messages">;

/** Hook called before each model request; it may swap the context, model or thinking level for that request. */
export type PrepareRequest = (
	request: PrepareRequestContext,
	signal?: AbortSignal,
) => AgentRequestUpdate | void | Promise<AgentRequestUpdate | undefined> | Promise<void>;

/** What `prepareNextTurn` receives: the finished turn, before the next one starts. */
export interface PrepareNextTurnContext extends AgentTurnContext {}
