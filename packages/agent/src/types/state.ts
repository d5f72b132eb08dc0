import type { ClientIdentity, Message, Model, SimpleStreamOptions, ThinkingBudgets, Transport } from "@tau/ai";
import type { AgentLoopConfig, StreamFn } from "./config.js";
import type { AgentEvent } from "./events.js";
import type { AgentLoopTurnUpdate, FinishTurn, PrepareNextTurnContext, PrepareRequest } from "./hooks.js";
import type { AgentMessage, QueueMode, ThinkingLevel } from "./messages.js";
import type { AgentTool, ToolExecutionMode } from "./tools.js";

/** The live state of an `Agent`: system prompt, model, tools, transcript and what is streaming now. */
export interface AgentState {
	/** Replayed from the transcript; change it by appending system messages. */
	readonly systemPrompt: string;
	model: Model<any>;
	thinkingLevel: ThinkingLevel;
	/** Assigning stores a copy of the array; the getter returns the live array. */
	tools: AgentTool<any>[];
	/** Assigning stores a copy of the array; the getter returns the live array. */
	messages: AgentMessage[];
	readonly isStreaming: boolean;
	readonly streamingMessage?: AgentMessage;
	readonly pendingToolCalls: ReadonlySet<string>;
	readonly errorMessage?: string;
}

type PrepareNextTurnResult = Promise<AgentLoopTurnUpdate | undefined> | AgentLoopTurnUpdate | undefined;

/** Constructor options of `Agent`: initial state, transcript conversion, stream function, queue modes and hooks. */
export interface AgentOptions {
	initialState?: Partial<Omit<AgentState, "pendingToolCalls" | "isStreaming" | "streamingMessage" | "errorMessage">>;
	/** Default keeps the roles `system`, `user`, `assistant`, `toolResult`. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/** Falls back to the default stream function (`setDefaultStreamFn`). */
	streamFn?: StreamFn;
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	onPayload?: SimpleStreamOptions["onPayload"];
	onResponse?: SimpleStreamOptions["onResponse"];
	onProviderStreamEvent?: SimpleStreamOptions["onProviderStreamEvent"];
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	finishTurn?: FinishTurn;
	prepareRequest?: PrepareRequest;
	prepareNextTurn?: (signal?: AbortSignal) => PrepareNextTurnResult;
	prepareNextTurnWithContext?: (context: PrepareNextTurnContext, signal?: AbortSignal) => PrepareNextTurnResult;
	/** Default `"one-at-a-time"`. */
	steeringMode?: QueueMode;
	/** Default `"one-at-a-time"`. */
	followUpMode?: QueueMode;
	sessionId?: string;
	thinkingBudgets?: ThinkingBudgets;
	/** Default `"auto"`. */
	transport?: Transport;
	maxRetryDelayMs?: number;
	/** Default `"parallel"`. */
	toolExecution?: ToolExecutionMode;
	/** Merged over `DEFAULT_AGENT_IDENTITY` per request. */
	identity?: ClientIdentity;
}

/** Listeners observe: they are awaited in registration order and their return values are ignored. */
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;
