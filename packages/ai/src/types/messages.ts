import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "./content.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { Api, ProviderId } from "./model.js";
import type { ModelThinkingLevel } from "./thinking.js";
import type { Tool, ToolReference } from "./tools.js";
import type { Usage } from "./usage.js";

/** `pending` only appears on partial messages while streaming, never on a terminal message. */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";

/** System prompt and tool set as part of the transcript: the first is the baseline, later ones are patches. */
export interface SystemMessage {
	role: "system";
	content: string | TextContent[];
	/** Named prompt sections; `null` deletes a section on replay. */
	sections?: Record<string, string | null>;
	/** Full definitions of tools that become available here. */
	toolsAdded?: Tool[];
	/** Tools that stop being available here. */
	toolsRemoved?: ToolReference[];
	timestamp: number;
}

/** A user's message: text, or text and images. */
export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}

/** A model's answer: text, thinking and tool calls, with the model that produced it, usage, stop reason and error. */
export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	/** The model that was asked. */
	api: Api;
	provider: ProviderId;
	model: string;
	/** Model the provider reports, when different from `model`. */
	responseModel?: string;
	/** Provider response/message id when exposed. */
	responseId?: string;
	/** Exact provider-native effort used, when the adapter manages it. */
	providerThinkingLevel?: string;
	/** Level the agent loop requested (set by @tau/agent). */
	thinkingLevel?: ModelThinkingLevel;
	diagnostics?: AssistantMessageDiagnostic[];
	usage: Usage;
	stopReason: StopReason;
	/** Present when `stopReason === "deferred"`. */
	deferred?: DeferredHandle;
	/** Present when `stopReason` is `"error"` or `"aborted"`. */
	errorMessage?: string;
	/** Provider's raw stop/finish reason, for debugging. */
	rawStopReason?: string;
	/** Provider's "explicitly ended turn" flag; informational only. */
	endTurn?: boolean;
	/** ms epoch when the request started. */
	timestamp: number;
	/** Monotonic request duration, set by the event stream. */
	durationMs?: number;
}

/**
 * The result of a tool call sent back to the model: content it sees, details it does not, and whether the tool failed.
 */
export interface ToolResultMessage<TDetails = JsonValue> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	/** What the model sees. */
	content: (TextContent | ImageContent)[];
	/** JSON for UI/logs; never sent to the model. */
	details?: TDetails;
	/** Usage of the tool's own work; not LLM context accounting. */
	usage?: Usage;
	/** Record of the calls this tool made (set by higher layers). */
	nestedCalls?: NestedToolCalls;
	isError: boolean;
	timestamp: number;
	/** Monotonic duration of execute(). */
	durationMs?: number;
}

/** Any message of a transcript: system, user, assistant or tool result. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** An error recorded in a diagnostic: name, message, stack and code. */
export interface DiagnosticErrorInfo {
	name?: string;
	message: string;
	stack?: string;
	code?: string | number;
}

/** A diagnostic record attached to an assistant message (e.g. a retried or repaired request), for logs and support. */
export interface AssistantMessageDiagnostic {
	type: string;
	timestamp: number;
	error?: DiagnosticErrorInfo;
	details?: JsonObject;
}

/** The tool calls a tool made while it ran, and whether the record is complete. */
export interface NestedToolCalls {
	calls: NestedToolCallRecord[];
	complete: boolean;
}

/**
 * One tool call a tool made on the model's behalf (e.g. inside a code-mode script): name, arguments, outcome and
 * duration.
 */
export interface NestedToolCallRecord {
	id: string;
	name: string;
	arguments?: JsonObject;
	argumentsBytes?: number;
	status: "ok" | "error" | "unfinished";
	durationMs?: number;
	error?: string;
}

/** A deferred (batch or background) request a provider accepted: where to poll for its result and until when. */
export interface DeferredHandle {
	provider: string;
	modelId: string;
	api: string;
	id: string;
	expiresAt?: number;
	pollAfterMs?: number;
	data?: JsonValue;
}
