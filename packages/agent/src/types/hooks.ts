import type { AssistantMessage, ImageContent, JsonValue, Model, TextContent, ToolResultMessage, Usage } from "@tau/ai";
import type { AgentContext } from "./context.js";
import type { AgentMessage, ThinkingLevel } from "./messages.js";
import type { AgentToolCall, AgentToolResult } from "./tools.js";

export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

export interface BeforeToolCallContext {
	/** The message that requested the call. */
	assistantMessage: AssistantMessage;
	/** Raw block from `assistantMessage.content` (unprepared arguments). */
	toolCall: AgentToolCall;
	/** Prepared, coerced and validated arguments. */
	args: unknown;
	context: AgentContext;
}

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

export type AgentTurnDecision = { action: "continue" } | { action: "end" };

export type FinishTurn = (
	turn: AgentTurnContext,
	signal?: AbortSignal,
) => AgentTurnDecision | void | Promise<AgentTurnDecision | undefined> | Promise<void>;

export interface AgentLoopTurnUpdate {
	context?: AgentContext;
	messages?: AgentMessage[];
	model?: Model<any>;
	thinkingLevel?: ThinkingLevel;
}

export interface PrepareRequestContext {
	context: AgentContext;
	model: Model<any>;
	thinkingLevel: ThinkingLevel;
}

export type AgentRequestUpdate = Omit<AgentLoopTurnUpdate, "messages">;

export type PrepareRequest = (
	request: PrepareRequestContext,
	signal?: AbortSignal,
) => AgentRequestUpdate | void | Promise<AgentRequestUpdate | undefined> | Promise<void>;

export interface PrepareNextTurnContext extends AgentTurnContext {}
