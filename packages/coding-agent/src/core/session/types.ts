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

export interface SessionEntryBase {
	type: string;
	/** Usually 8 lowercase hex characters; treated as opaque. */
	id: string;
	/** `null` marks a root entry. */
	parentId: string | null;
	/** ISO-8601 time of the append. */
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: SessionMessage;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

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

export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** Leaf before navigation, or the literal `"root"`. */
	fromId: string;
	summary: string;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
}

export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	details?: T;
	display: boolean;
}

export type ContextEditableContent = string | (TextContent | ImageContent | Record<string, unknown>)[];

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

export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

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

export type FileEntry = SessionHeader | SessionEntry;

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

export interface ProjectedSessionEntry {
	/** The stored entry, never modified by context edits. */
	sourceEntry: SessionEntry;
	messages: SessionMessage[];
}

export interface SessionProjection {
	entries: ProjectedSessionEntry[];
	messages: SessionMessage[];
	thinkingLevel: string;
	model: ModelSelection | null;
}

export interface SessionContext {
	messages: SessionMessage[];
	thinkingLevel: string;
	model: ModelSelection | null;
}

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
