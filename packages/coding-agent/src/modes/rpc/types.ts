import type { AgentMessage } from "@tau/agent";
import type { Api, ImageContent, Model, ThinkingLevel } from "@tau/ai";
import type { SessionStats } from "../../core/agent-session/session-stats.js";
import type { CompactionResult } from "../../core/compaction/index.js";
import type { BashResult } from "../../core/extensions/index.js";
import type { SourceInfo } from "../../core/resources/index.js";
import type { SessionEntry, SessionTreeNode } from "../../core/session/index.js";

/** Wire records of `tau --mode rpc` (docs/rpc.md); names and shapes are pi 1.6's. */

export type RpcThinkingLevel = ThinkingLevel | "off";
export type QueueMode = "all" | "one-at-a-time";
export type PromptDisposition = "started" | "queued" | "handled";

type Command<T extends string, F = object> = { id?: string; type: T } & F;
type MessageFields = { message: string; images?: ImageContent[] };

/** A command an RPC client sends to `tau --mode rpc` on stdin, one JSON object a line (docs/rpc.md). */
export type RpcCommand =
	| Command<"prompt", MessageFields & { streamingBehavior?: "steer" | "followUp" }>
	| Command<"steer", MessageFields>
	| Command<"follow_up", MessageFields>
	| Command<"abort">
	| Command<"clear_queue">
	| Command<"new_session", { parentSession?: string }>
	| Command<"get_state">
	| Command<"get_messages">
	| Command<"set_model", { provider: string; modelId: string }>
	| Command<"cycle_model">
	| Command<"get_available_models">
	| Command<"set_thinking_level", { level: RpcThinkingLevel }>
	| Command<"cycle_thinking_level">
	| Command<"get_available_thinking_levels">
	| Command<"set_steering_mode", { mode: QueueMode }>
	| Command<"set_follow_up_mode", { mode: QueueMode }>
	| Command<"compact", { customInstructions?: string }>
	| Command<"set_auto_compaction", { enabled: boolean }>
	| Command<"set_auto_retry", { enabled: boolean }>
	| Command<"abort_retry">
	| Command<"bash", { command: string; excludeFromContext?: boolean }>
	| Command<"abort_bash">
	| Command<"get_session_stats">
	| Command<"export_html", { outputPath?: string }>
	| Command<"switch_session", { sessionPath: string }>
	| Command<"fork", { entryId: string }>
	| Command<"clone">
	| Command<"get_fork_messages">
	| Command<"get_entries", { since?: string }>
	| Command<"get_tree">
	| Command<"get_last_assistant_text">
	| Command<"set_session_name", { name: string }>
	| Command<"get_commands">
	/** tau only: also stream the events Pi does not emit (docs/rpc.md, "tau-only events"). */
	| Command<"set_tau_events", { enabled: boolean }>;

export type RpcCommandType = RpcCommand["type"];

/** The agent's answer to one RPC command: success with the command's data, or failure with an error message. */
export type RpcResponse =
	| { id?: string; type: "response"; command: string; success: true; data?: unknown }
	| { id?: string; type: "response"; command: string; success: false; error: string };

/**
 * The session state `get_state` reports over RPC: model, thinking level, streaming and compaction status, session
 * file and id, queue modes and message counts.
 */
export interface RpcSessionState {
	/** Pi's stand-in model (id, name, api and provider `unknown`) when none is selected. */
	model: Model<Api>;
	thinkingLevel: RpcThinkingLevel;
	isStreaming: boolean;
	isCompacting: boolean;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	sessionFile?: string;
	sessionId: string;
	sessionName?: string;
	autoCompactionEnabled: boolean;
	messageCount: number;
	pendingMessageCount: number;
}

/** The wire shape of `get_session_stats` is the session's own. */
export type { SessionStats };

export interface RpcSlashCommand {
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	sourceInfo: SourceInfo;
}

/**
 * A dialog or notification an extension asks the RPC client to show (select, confirm, input, editor, notify and
 * status updates).
 */
export type RpcExtensionUIRequest = { type: "extension_ui_request"; id: string } & (
	| { method: "select"; title: string; options: string[]; timeout?: number }
	| { method: "confirm"; title: string; message: string; timeout?: number }
	| { method: "input"; title: string; placeholder?: string; timeout?: number }
	| { method: "editor"; title: string; prefill?: string }
	| { method: "notify"; message: string; notifyType?: "info" | "warning" | "error" }
	| { method: "setStatus"; statusKey: string; statusText?: string }
	| {
			method: "setWidget";
			widgetKey: string;
			widgetLines?: string[];
			widgetPlacement?: "aboveEditor" | "belowEditor";
	  }
	| { method: "setTitle"; title: string }
	| { method: "set_editor_text"; text: string }
);

/** The RPC client's answer to an extension dialog: the chosen or entered value, a confirmation, or a cancellation. */
export type RpcExtensionUIResponse =
	| { type: "extension_ui_response"; id: string; value: string }
	| { type: "extension_ui_response"; id: string; confirmed: boolean }
	| { type: "extension_ui_response"; id: string; cancelled: true };

/** What each command's success `data` is (`undefined` = the key is omitted). */
export interface RpcCommandData {
	prompt: { disposition: PromptDisposition };
	steer: { disposition: "queued" | "handled" };
	follow_up: { disposition: "queued" | "handled" };
	abort: undefined;
	clear_queue: { steering: string[]; followUp: string[] };
	new_session: { cancelled: boolean };
	get_state: RpcSessionState;
	get_messages: { messages: AgentMessage[] };
	set_model: Model<Api>;
	cycle_model: { model: Model<Api>; thinkingLevel: RpcThinkingLevel; isScoped: boolean } | null;
	get_available_models: { models: Model<Api>[] };
	set_thinking_level: undefined;
	cycle_thinking_level: { level: RpcThinkingLevel } | null;
	get_available_thinking_levels: { levels: RpcThinkingLevel[] };
	set_steering_mode: undefined;
	set_follow_up_mode: undefined;
	compact: CompactionResult;
	set_auto_compaction: undefined;
	set_auto_retry: undefined;
	abort_retry: undefined;
	bash: BashResult;
	abort_bash: undefined;
	get_session_stats: SessionStats;
	export_html: { path: string };
	switch_session: { cancelled: boolean };
	fork: { text: string; cancelled: false } | { cancelled: true };
	clone: { cancelled: boolean };
	get_fork_messages: { messages: { entryId: string; text: string }[] };
	get_entries: { entries: SessionEntry[]; leafId: string | null };
	get_tree: { tree: SessionTreeNode[]; leafId: string | null };
	/** `text` is left out when there is no assistant text (Pi's wire shape). */
	get_last_assistant_text: { text?: string };
	set_session_name: undefined;
	get_commands: { commands: RpcSlashCommand[] };
	set_tau_events: undefined;
}

export type { BashResult, CompactionResult };
