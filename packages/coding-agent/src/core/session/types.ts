import type { ImageContent, SessionMessage, SystemMessage, TextContent, Usage } from "./messages.js";

/** First line of a session file; not part of the entry tree. */
export interface SessionHeader {
	type: "session";
	/** 3 for files written by tau and pi 1.x; missing means 1. */
	version?: number;
	id: string;
	timestamp: string;
	cwd: string;
	parentSession?: string;
}

/** Fields every session entry has: its type, its id, the id of its parent in the session tree and a timestamp. */
export interface SessionEntryBase {
	type: string;
	/** Usually 8 lowercase hex characters; treated as opaque. */
	id: string;
	/** `null` marks a root entry. */
	parentId: string | null;
	/** ISO-8601 time of the append. */
	timestamp: string;
}

/** Session entry holding one conversation message (user, assistant, tool result or custom). */
export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: SessionMessage;
}

/** Session entry recording that the session's model changed, so resuming restores it. */
export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

/** Session entry recording that the session's thinking level changed, so resuming restores it. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: string;
}

export interface UsageEntry extends SessionEntryBase {
	type: "usage";
	kind: string;
	provider: string;
	model: string;
	usage: Usage;
	note?: string;
}

/** The file lists the built-in summarizers record. */
export interface FileListDetails {
	readFiles: string[];
	modifiedFiles: string[];
}

/**
 * Session entry written by a compaction: the summary that replaces the older history in the model context, and the
 * first entry kept verbatim.
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	/** First entry kept verbatim; this entry's own id means "retain none". */
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
	/** The replayed prompt and tool set at the boundary (absent on pre-1.x entries). */
	systemMessage?: SystemMessage;
}

/**
 * Session entry written when `/tree` navigation leaves a branch: the summary of the abandoned branch, sent to the
 * model in place of it.
 */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** Leaf before navigation, or the literal `"root"`. */
	fromId: string;
	summary: string;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
}

/** Session entry holding an extension's own state under `customType`; it never reaches the model. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

/**
 * Session entry holding an extension's message, sent to the model as a user message and optionally shown in the
 * transcript.
 */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	details?: T;
	display: boolean;
}

/** Content that a `context_edit` entry can put in place of an entry's message for the model: text or content blocks. */
export type ContextEditableContent = string | (TextContent | ImageContent | Record<string, unknown>)[];

/**
 * Session entry that changes what the model sees of an earlier entry (replace its content, or hide it with `null`)
 * while the entry itself stays stored.
 */
export interface ContextEditEntry extends SessionEntryBase {
	type: "context_edit";
	targetId: string;
	/** `null` omits the target from model context. */
	replacement: { content: ContextEditableContent } | null;
}

export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label: string | undefined;
}

/** Session entry setting the session's display name (as `/name` does). */
export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

/**
 * Any entry of a session file after the header: messages, model and thinking changes, compactions, summaries,
 * custom entries, labels and session info.
 */
export type SessionEntry =
	| SessionMessageEntry
	| ModelChangeEntry
	| ThinkingLevelChangeEntry
	| UsageEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| ContextEditEntry
	| LabelEntry
	| SessionInfoEntry;

/** One line of a session file: the header or a session entry. */
export type FileEntry = SessionHeader | SessionEntry;

/** A node of the session tree as `/tree` shows it: an entry, its children and its label. */
export interface SessionTreeNode {
	entry: SessionEntry;
	children: SessionTreeNode[];
	label?: string;
	labelTimestamp?: string;
}

export interface ModelSelection {
	provider: string;
	modelId: string;
}

/**
 * A stored session entry together with the messages it contributes to the model context after context edits are
 * applied.
 */
export interface ProjectedSessionEntry {
	/** The stored entry, never modified by context edits. */
	sourceEntry: SessionEntry;
	messages: SessionMessage[];
}

/**
 * A session branch projected for the model: each entry with its messages, the resulting message list, and the
 * thinking level and model in effect.
 */
export interface SessionProjection {
	entries: ProjectedSessionEntry[];
	messages: SessionMessage[];
	thinkingLevel: string;
	model: ModelSelection | null;
}

/**
 * What a session branch amounts to for the model: its messages after compaction and context edits, and the
 * thinking level and model in effect.
 */
export interface SessionContext {
	messages: SessionMessage[];
	thinkingLevel: string;
	model: ModelSelection | null;
}

/**
 * Summary of a stored session for listings and `/resume`: file, id, working directory, name, dates, message count
 * and first message.
 */
export interface SessionInfo {
	path: string;
	id: string;
	cwd: string;
	name?: string;
	parentSessionPath?: string;
	created: Date;
	modified: Date;
	messageCount: number;
	firstMessage: string;
	allMessagesText: string;
}

/** Options for starting a new session file: a fixed session id, and the session it was forked from. */
export interface NewSessionOptions {
	id?: string;
	parentSession?: string;
}

/** When appends are flushed to stable storage: never, after important entries, or after every line. */
export type FsyncPolicy = "off" | "important" | "always";

/** Storage behaviour a host supplies (read from settings by the caller, not by the session layer). */
export interface SessionStorageOptions {
	/** Default `"off"`. */
	fsync?: FsyncPolicy;
	/** Take the single-writer lock (default true). */
	lock?: boolean;
	/** Lock staleness in ms (default 30000). */
	lockStaleMs?: number;
	/** Agent dir for default locations (default `getAgentDir()`). */
	agentDir?: string;
}

export interface SessionDiagnostic {
	level: "info" | "warning" | "error";
	message: string;
}
