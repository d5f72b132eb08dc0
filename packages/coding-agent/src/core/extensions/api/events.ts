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
import type { CompactionPreparation, CompactionResult } from "../../compaction/index.js";
import type { BuildSystemPromptOptions } from "../../resources/system-prompt/system-prompt.js";
import type { PathMetadata } from "../../resources/types.js";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	ContextEditableContent,
	CustomMessage,
	ProjectedSessionEntry,
	SessionEntry,
} from "../../session/index.js";
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

/*
 * Event payloads and handler results (docs/design/extensions.md#events). Every event carries `type` equal to its
 * name; the names and fields are the pi 1.6 ones so pi extensions type-check unchanged.
 */

export type ExtensionMode = "tui" | "rpc" | "json" | "print";

// Project trust and resources

export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
}
export interface ProjectTrustEventResult {
	trusted: "yes" | "no" | "undecided";
	remember?: boolean;
}

export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

export interface McpServersChangeEvent {
	type: "mcp_servers_change";
}

// Session lifecycle

export type SessionStartReason = "startup" | "reload" | "new" | "resume" | "fork";
export interface SessionStartEvent {
	type: "session_start";
	reason: SessionStartReason;
	previousSessionFile?: string;
}
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name: string | undefined;
}
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: "manual" | "threshold" | "overflow";
	willRetry: boolean;
	signal: AbortSignal;
}
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: CompactionEntry;
	fromExtension: boolean;
	reason: "manual" | "threshold" | "overflow";
	/** Whether the interrupted request is retried after this compaction (overflow recovery). */
	willRetry: boolean;
}
export interface SessionCompactFailedEvent {
	type: "session_compact_failed";
	reason: "manual" | "threshold" | "overflow";
	aborted: boolean;
	errorMessage?: string;
	willRetry: boolean;
	fromExtension: boolean;
}
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	fromExtension?: boolean;
}
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}

export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
export interface SessionBeforeForkResult {
	cancel?: boolean;
}
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown; usage?: Usage };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

// UI prompts

export interface UiPromptEvent {
	type: "ui_prompt_start" | "ui_prompt_end";
	reason: "ui_prompt";
	kind: "select" | "confirm" | "input" | "editor" | "custom";
	title?: string;
}

// Input and run start

export type InputSource = "interactive" | "rpc" | "extension";
export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: InputSource;
	streamingBehavior?: "steer" | "followUp";
}
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };

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
export type BeforeAgentStartEvent =
	| (BeforeAgentStartEventBase & { messageType: "user"; prompt: string; images?: ImageContent[] })
	| (BeforeAgentStartEventBase & { messageType: "custom"; message: CustomMessage });

export interface ExtensionMessageDraft<T = unknown> {
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
}
export interface BeforeAgentStartEventResult {
	message?: ExtensionMessageDraft;
	systemPrompt?: string;
}

// Agent lifecycle

export interface AgentStartEvent {
	type: "agent_start";
}
export interface AgentEndEvent {
	type: "agent_end";
	messages: AgentMessage[];
}
export interface AgentSettledEvent {
	type: "agent_settled";
	aborted: boolean;
}
export interface TurnStartEvent {
	type: "turn_start";
	turnIndex: number;
	timestamp: number;
}

// Actionable boundaries (docs/design/extensions.md#boundaries)

export type AgentActivityOutcome = "completed" | "aborted" | "error";
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

export interface BoundaryContextPreview {
	contextEntries: ProjectedSessionEntry[];
	contextMessages: AgentMessage[];
	llmMessages: Message[];
	pendingMessages: AgentMessage[];
	canContinue: boolean;
}
export interface BoundaryState {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: AgentActivityOutcome;
}
export interface TurnEndEvent extends BoundaryState {
	type: "turn_end";
	turnIndex: number;
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	messageEntryId: string;
	toolResultEntryIds: string[];
}
export interface AgentBeforeSettleEvent extends BoundaryState {
	type: "agent_before_settle";
}
export interface BoundaryEventResult {
	entries?: SessionBoundaryDraft[];
	continue?: boolean;
}

// Messages

export interface MessageStartEvent {
	type: "message_start";
	message: AgentMessage;
}
export interface MessageUpdateEvent {
	type: "message_update";
	message: AgentMessage;
	assistantMessageEvent: AssistantMessageEvent;
}
export interface MessageEndEvent {
	type: "message_end";
	message: AgentMessage;
}
export interface MessageEndEventResult {
	message?: AgentMessage;
}

// Tools

export interface ToolExecutionStartEvent {
	type: "tool_execution_start";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	args: any;
}
export interface ToolExecutionUpdateEvent {
	type: "tool_execution_update";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	args: any;
	partialResult: any;
}
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
export type ToolCallEvent =
	| {
			[K in keyof BuiltinToolInputs]: ToolCallEventBase & { toolName: K; input: BuiltinToolInputs[K] };
	  }[keyof BuiltinToolInputs]
	| (ToolCallEventBase & { toolName: string; input: Record<string, unknown> });
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

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
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
}

// Requests

export interface ContextEvent {
	type: "context";
	messages: AgentMessage[];
}
export interface ContextWithSystemEvent {
	type: "context_with_system";
	messages: AgentMessage[];
}
export interface ContextEventResult {
	messages?: AgentMessage[];
}
export type ProviderHeaders = Record<string, string | null>;
export interface BeforeProviderHeadersEvent {
	type: "before_provider_headers";
	headers: ProviderHeaders;
}
export interface BeforeProviderRequestEvent {
	type: "before_provider_request";
	payload: unknown;
}
export interface AfterProviderResponseEvent {
	type: "after_provider_response";
	status: number;
	headers: Record<string, string>;
}
export interface ProviderStreamEvent {
	type: "provider_stream_event";
	provider: string;
	api: string;
	model: string;
	data: unknown;
}
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

export interface ModelSelectEvent {
	type: "model_select";
	model: Model<any>;
	previousModel: Model<any> | undefined;
	source: "set" | "cycle" | "restore";
}
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}

// User bash

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
export type ExtensionEvent = ExtensionEventMap[ExtensionEventName][0];
export type ExtensionEventOf<E extends ExtensionEventName> = ExtensionEventMap[E][0];
export type ExtensionResultOf<E extends ExtensionEventName> = ExtensionEventMap[E][1];

/** Paths contributed by `resources_discover` handlers, tagged with the contributing extension. */
export interface DiscoveredResourcePaths {
	skillPaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
	promptPaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
	themePaths: { path: string; extensionPath: string; metadata?: PathMetadata }[];
}
