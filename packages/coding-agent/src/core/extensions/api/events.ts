import type { AgentMessage, ThinkingLevel } from "@tau/agent";
import type {
	AssistantMessageEvent,
	ImageContent,
	JsonValue,
	Message,
	Model,
	TextContent,
	ToolResultMessage,
	Usage,
} from "@tau/ai";
import type { BuildSystemPromptOptions } from "../../resources/system-prompt/system-prompt.js";
import type { PathMetadata } from "../../resources/types.js";
import type { ContextEditableContent, CustomMessage, ProjectedSessionEntry } from "../../session/index.js";
import type {
	BashOperations,
	BashToolInput,
	EditToolInput,
	FindToolInput,
	GrepToolInput,
	LsToolInput,
	ReadToolInput,
	WriteToolInput,
} from "../../tools/index.js";
import type {
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeForkEvent,
	SessionBeforeForkResult,
	SessionBeforeSwitchEvent,
	SessionBeforeSwitchResult,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	SessionCompactEvent,
	SessionCompactFailedEvent,
	SessionInfoChangedEvent,
	SessionShutdownEvent,
	SessionStartEvent,
	SessionTreeEvent,
} from "./session-events.js";

/*
 * Event payloads and handler results (docs/design/extensions.md#events). Every event carries `type` equal to its
 * name; the names and fields are the pi 1.6 ones so pi extensions type-check unchanged.
 */

export type ExtensionMode = "tui" | "rpc" | "json" | "print";

// Project trust and resources

/**
 * Payload of `project_trust`, asked of user and CLI extensions before a project's resources load: whether to trust
 * the project at `cwd`.
 */
export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
}
/** An extension's answer to `project_trust`: trust, distrust or no opinion, and whether to remember the decision. */
export interface ProjectTrustEventResult {
	trusted: "yes" | "no" | "undecided";
	remember?: boolean;
}

/**
 * Payload of `resources_discover`, fired after `session_start` and on reload so extensions can contribute resource
 * paths.
 */
export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
/** What a `resources_discover` handler may return: extra skill, prompt-template and theme paths to load. */
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

/** Payload of `mcp_servers_change`: an extension registered or removed an MCP server (handlers are not awaited). */
export interface McpServersChangeEvent {
	type: "mcp_servers_change";
}

// UI prompts

export interface UiPromptEvent {
	type: "ui_prompt_start" | "ui_prompt_end";
	reason: "ui_prompt";
	kind: "select" | "confirm" | "input" | "editor" | "custom";
	title?: string;
}

// Input and run start

/** Where submitted input came from: the interactive editor, an RPC client, or an extension sending a user message. */
export type InputSource = "interactive" | "rpc" | "extension";
/**
 * Payload of `input`: text (and images) the user submitted, before `/skill:` and prompt-template expansion, with
 * where it came from.
 */
export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: InputSource;
	streamingBehavior?: "steer" | "followUp";
}
/**
 * What an `input` handler may return: let the input through, replace its text and images, or mark it handled so
 * the agent does not run.
 */
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };

/**
 * System-prompt options with every field that has a default filled in, as `before_agent_start` handlers see them
 * in `event.systemPromptOptions`.
 */
export type NormalizedBuildSystemPromptOptions = BuildSystemPromptOptions &
	Required<
		Pick<
			BuildSystemPromptOptions,
			| "selectedTools"
			| "hiddenTools"
			| "toolSnippets"
			| "toolGuidelines"
			| "promptGuidelines"
			| "appendSystemPrompt"
			| "sections"
			| "contextFiles"
			| "skills"
		>
	>;

interface BeforeAgentStartEventBase {
	type: "before_agent_start";
	/** Rendered from the current options, including earlier handlers' changes. */
	readonly systemPrompt: string;
	/** Shared and mutable: structured edits are diffed into one system patch after all handlers. */
	systemPromptOptions: NormalizedBuildSystemPromptOptions;
}
/**
 * Payload of `before_agent_start`, fired once per run before the first request: the starting user prompt or custom
 * message, the system prompt and its editable options.
 */
export type BeforeAgentStartEvent =
	| (BeforeAgentStartEventBase & { messageType: "user"; prompt: string; images?: ImageContent[] })
	| (BeforeAgentStartEventBase & { messageType: "custom"; message: CustomMessage });

export interface ExtensionMessageDraft<T = unknown> {
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
}
/**
 * What a `before_agent_start` handler may return: a message to add after the starting one, and/or a system prompt
 * that replaces the whole prompt for this run only.
 */
export interface BeforeAgentStartEventResult {
	message?: ExtensionMessageDraft;
	systemPrompt?: string;
}

// Agent lifecycle

/** Payload of `agent_start`: the agent loop begins a run. */
export interface AgentStartEvent {
	type: "agent_start";
}
/** Payload of `agent_end`: the agent loop finished, with every message the run produced. */
export interface AgentEndEvent {
	type: "agent_end";
	messages: AgentMessage[];
}
/**
 * Payload of `agent_settled`: the whole run is over and the session is idle again; `aborted` says whether the user
 * stopped it.
 */
export interface AgentSettledEvent {
	type: "agent_settled";
	aborted: boolean;
}
/** Payload of `turn_start`: a new turn of the agent loop begins. */
export interface TurnStartEvent {
	type: "turn_start";
	turnIndex: number;
	timestamp: number;
}

// Actionable boundaries (docs/design/extensions.md#boundaries)

/**
 * How an agent run ended, as reported to boundary handlers: finished normally, aborted by the user, or stopped by
 * an error.
 */
export type AgentActivityOutcome = "completed" | "aborted" | "error";
/**
 * A session entry an extension proposes at a boundary (`turn_end`, `agent_before_settle`): hidden custom state, a
 * custom message for the model, a context edit or a compaction.
 */
export type SessionBoundaryDraft =
	| { type: "custom"; customType: string; data?: unknown }
	| {
			type: "custom_message";
			customType: string;
			content: string | (TextContent | ImageContent)[];
			display: boolean;
			details?: unknown;
	  }
	| { type: "context_edit"; targetId: string; replacement: { content: ContextEditableContent } | null }
	| { type: "compaction"; summary: string; firstKeptEntryId: string | null; details?: unknown; usage?: Usage };

/**
 * A preview, for `turn_end` and `agent_before_settle` handlers, of the model context as it would be with the
 * proposed drafts applied, and whether another request can follow.
 */
export interface BoundaryContextPreview {
	contextEntries: ProjectedSessionEntry[];
	contextMessages: AgentMessage[];
	llmMessages: Message[];
	pendingMessages: AgentMessage[];
	canContinue: boolean;
}
/**
 * The proposal a boundary event carries: session entry drafts to append, whether to make another model request,
 * the context preview and the run's outcome so far.
 */
export interface BoundaryState {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: AgentActivityOutcome;
}
/**
 * Payload of `turn_end`: a turn (one assistant message and its tool results) was persisted; handlers may add
 * entries or ask for another request (docs/extensions.md, "Boundaries").
 */
export interface TurnEndEvent extends BoundaryState {
	type: "turn_end";
	turnIndex: number;
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	messageEntryId: string;
	toolResultEntryIds: string[];
}
/**
 * Payload of `agent_before_settle`: the last chance, before the run settles, to add session entries or ask for
 * another model request (docs/extensions.md, "Boundaries").
 */
export interface AgentBeforeSettleEvent extends BoundaryState {
	type: "agent_before_settle";
}
export interface BoundaryEventResult {
	entries?: SessionBoundaryDraft[];
	continue?: boolean;
}

// Messages

/** Payload of `message_start`: a message (user, assistant, tool result or custom) enters the loop. */
export interface MessageStartEvent {
	type: "message_start";
	message: AgentMessage;
}
/**
 * Payload of `message_update`: a streaming assistant message changed, with the provider stream event that changed
 * it.
 */
export interface MessageUpdateEvent {
	type: "message_update";
	message: AgentMessage;
	assistantMessageEvent: AssistantMessageEvent;
}
/** Payload of `message_end`: a message is final; a handler may return a replacement with the same role. */
export interface MessageEndEvent {
	type: "message_end";
	message: AgentMessage;
}
/** What a `message_end` handler may return: a message (same role) that replaces the final one everywhere. */
export interface MessageEndEventResult {
	message?: AgentMessage;
}

// Tools

/** Payload of `tool_execution_start`: a tool call (top-level or nested) starts running, with its arguments. */
export interface ToolExecutionStartEvent {
	type: "tool_execution_start";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	args: any;
}
/** Payload of `tool_execution_update`: a running tool reported partial output. */
export interface ToolExecutionUpdateEvent {
	type: "tool_execution_update";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	args: any;
	partialResult: any;
}
/**
 * Payload of `tool_execution_end`: a tool call (top-level or nested) finished, with its result and whether it
 * failed.
 */
export interface ToolExecutionEndEvent {
	type: "tool_execution_end";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	result: any;
	isError: boolean;
	durationMs?: number;
}

/** Input shapes of the built-in tools, keyed by tool name (narrowed by `isToolCallEventType`). */
export interface BuiltinToolInputs {
	bash: BashToolInput;
	powershell: BashToolInput;
	read: ReadToolInput;
	edit: EditToolInput;
	write: WriteToolInput;
	grep: GrepToolInput;
	find: FindToolInput;
	ls: LsToolInput;
}

interface ToolCallEventBase {
	type: "tool_call";
	toolCallId: string;
	parentToolCallId?: string;
}
/**
 * Payload of `tool_call`, fired before a tool runs and after its arguments were validated; built-in tools have
 * typed `input`, which handlers may edit in place.
 */
export type ToolCallEvent =
	| {
			[K in keyof BuiltinToolInputs]: ToolCallEventBase & { toolName: K; input: BuiltinToolInputs[K] };
	  }[keyof BuiltinToolInputs]
	| (ToolCallEventBase & { toolName: string; input: Record<string, unknown> });
/** What a `tool_call` handler may return: block the call (with a reason the model sees) and optionally end the run. */
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

/** Payload of `tool_result`: a tool ran; handlers may patch its content, details, structured content or error flag. */
export interface ToolResultEvent {
	type: "tool_result";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	details: unknown;
	structuredContent?: JsonValue;
	isError: boolean;
	usage?: Usage;
}
/** What a `tool_result` handler may return: a partial patch of the tool result; omitted fields keep their value. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
}

// Requests

/**
 * Payload of `context`, fired before each model request with the conversation (without system messages); edit
 * `messages` in place or return a new list for this request only.
 */
export interface ContextEvent {
	type: "context";
	messages: AgentMessage[];
}
/**
 * Payload of `context_with_system`, fired after `context`: the full request transcript including the leading
 * system message, which the handler owns.
 */
export interface ContextWithSystemEvent {
	type: "context_with_system";
	messages: AgentMessage[];
}
/**
 * What a `context` or `context_with_system` handler may return: the message list to send instead, for this one
 * request.
 */
export interface ContextEventResult {
	messages?: AgentMessage[];
}
export type ProviderHeaders = Record<string, string | null>;
/**
 * Payload of `before_provider_headers`: the HTTP headers of the next provider request; edit `headers` in place
 * (`null` deletes a header).
 */
export interface BeforeProviderHeadersEvent {
	type: "before_provider_headers";
	headers: ProviderHeaders;
}
/**
 * Payload of `before_provider_request`: the provider request body about to be sent; a handler that returns a value
 * replaces it.
 */
export interface BeforeProviderRequestEvent {
	type: "before_provider_request";
	payload: unknown;
}
/**
 * Payload of `after_provider_response`: the HTTP status and response headers of a provider request, as soon as
 * they arrive (read only).
 */
export interface AfterProviderResponseEvent {
	type: "after_provider_response";
	status: number;
	headers: Record<string, string>;
}
/**
 * Payload of `provider_stream_event`: one raw event of the provider's response stream, with the provider, API and
 * model (read only).
 */
export interface ProviderStreamEvent {
	type: "provider_stream_event";
	provider: string;
	api: string;
	model: string;
	data: unknown;
}
/**
 * Payload of `cache_warming_decision`, fired before an idle prompt-cache refresh with the estimated cost of
 * warming versus a cache miss; a handler answers warm or stop.
 */
export interface CacheWarmingDecisionEvent {
	type: "cache_warming_decision";
	warmCost: number;
	missCost: number;
	continuationProbability: number;
	action: "warm" | "stop";
}
export interface CacheWarmingDecisionResult {
	action?: "warm" | "stop";
}

// Models

/**
 * Payload of `model_select`: the session's model changed, with the previous model and whether it was set, cycled
 * or restored from the session.
 */
export interface ModelSelectEvent {
	type: "model_select";
	model: Model<any>;
	previousModel: Model<any> | undefined;
	source: "set" | "cycle" | "restore";
}
/** Payload of `thinking_level_select`: the session's thinking level changed. */
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}

// User bash

/**
 * Payload of `user_bash`: the user typed `!cmd` or `!!cmd`; handlers may run it elsewhere or answer it without
 * running.
 */
export interface UserBashEvent {
	type: "user_bash";
	command: string;
	excludeFromContext: boolean;
	cwd: string;
}
export interface BashResult {
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
}
/**
 * What a `user_bash` handler may return: shell operations to run the command with instead of the local shell, or a
 * finished result so nothing runs.
 */
export type UserBashEventResult = { operations: BashOperations; result?: undefined } | { result: BashResult };

/** Event name → [payload, handler result]. Unknown names are accepted too (forward compatibility). */
export interface ExtensionEventMap {
	project_trust: [ProjectTrustEvent, ProjectTrustEventResult];
	resources_discover: [ResourcesDiscoverEvent, ResourcesDiscoverResult | undefined];
	mcp_servers_change: [McpServersChangeEvent, undefined];
	session_start: [SessionStartEvent, undefined];
	session_info_changed: [SessionInfoChangedEvent, undefined];
	session_before_switch: [SessionBeforeSwitchEvent, SessionBeforeSwitchResult | undefined];
	session_before_fork: [SessionBeforeForkEvent, SessionBeforeForkResult | undefined];
	session_before_compact: [SessionBeforeCompactEvent, SessionBeforeCompactResult | undefined];
	session_compact: [SessionCompactEvent, undefined];
	session_compact_failed: [SessionCompactFailedEvent, undefined];
	session_before_tree: [SessionBeforeTreeEvent, SessionBeforeTreeResult | undefined];
	session_tree: [SessionTreeEvent, undefined];
	session_shutdown: [SessionShutdownEvent, undefined];
	ui_prompt_start: [UiPromptEvent, undefined];
	ui_prompt_end: [UiPromptEvent, undefined];
	input: [InputEvent, InputEventResult | undefined];
	before_agent_start: [BeforeAgentStartEvent, BeforeAgentStartEventResult | undefined];
	agent_start: [AgentStartEvent, undefined];
	agent_end: [AgentEndEvent, undefined];
	agent_settled: [AgentSettledEvent, undefined];
	turn_start: [TurnStartEvent, undefined];
	turn_end: [TurnEndEvent, BoundaryEventResult | undefined];
	agent_before_settle: [AgentBeforeSettleEvent, BoundaryEventResult | undefined];
	message_start: [MessageStartEvent, undefined];
	message_update: [MessageUpdateEvent, undefined];
	message_end: [MessageEndEvent, MessageEndEventResult | undefined];
	tool_execution_start: [ToolExecutionStartEvent, undefined];
	tool_execution_update: [ToolExecutionUpdateEvent, undefined];
	tool_execution_end: [ToolExecutionEndEvent, undefined];
	tool_call: [ToolCallEvent, ToolCallEventResult | undefined];
	tool_result: [ToolResultEvent, ToolResultEventResult | undefined];
	context: [ContextEvent, ContextEventResult | undefined];
	context_with_system: [ContextWithSystemEvent, ContextEventResult | undefined];
	before_provider_headers: [BeforeProviderHeadersEvent, undefined];
	before_provider_request: [BeforeProviderRequestEvent, unknown];
	after_provider_response: [AfterProviderResponseEvent, undefined];
	provider_stream_event: [ProviderStreamEvent, undefined];
	cache_warming_decision: [CacheWarmingDecisionEvent, CacheWarmingDecisionResult | undefined];
	model_select: [ModelSelectEvent, undefined];
	thinking_level_select: [ThinkingLevelSelectEvent, undefined];
	user_bash: [UserBashEvent, UserBashEventResult | undefined];
}

export type ExtensionEventName = keyof ExtensionEventMap;
/** Any event an extension can receive: the union of every payload in `ExtensionEventMap`. */
export type ExtensionEvent = ExtensionEventMap[ExtensionEventName][0];
export type ExtensionEventOf<E extends ExtensionEventName> = ExtensionEventMap[E][0];
export type ExtensionResultOf<E extends ExtensionEventName> = ExtensionEventMap[E][1];

/** Paths contributed by `resources_discover` handlers, tagged with the contributing extension. */
export interface DiscoveredResourcePaths {
	skillPaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
	promptPaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
	themePaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
}
