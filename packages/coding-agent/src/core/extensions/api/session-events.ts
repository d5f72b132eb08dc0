import type { Usage } from "@tau/ai";
import type { CompactionPreparation, CompactionResult } from "../../compaction/index.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../../session/index.js";

// Session lifecycle event payloads and handler results (docs/design/extensions.md#events); events.ts maps them to
// their event names.
export type SessionStartReason = "startup" | "reload" | "new" | "resume" | "fork";
/**
 * Payload of `session_start`: a session was bound to the extension runner, with the reason and the previous
 * session file when it replaced one.
 */
export interface SessionStartEvent {
	type: "session_start";
	reason: SessionStartReason;
	previousSessionFile?: string;
}
/** Payload of `session_info_changed`: the session was renamed (handlers are not awaited). */
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name: string | undefined;
}
/** Payload of `session_before_switch`: before `/new` or `/resume` replaces the current session; handlers may cancel. */
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
/**
 * Payload of `session_before_fork`: the user is about to fork the session at (or before) the given entry; handlers
 * may cancel.
 */
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
/**
 * Payload of `session_before_compact`: the prepared compaction (what would be summarized and kept) before it runs;
 * handlers may cancel or supply their own summary.
 */
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: "manual" | "threshold" | "overflow";
	willRetry: boolean;
	signal: AbortSignal;
}
/**
 * Payload of `session_compact`: a compaction finished, with the entry it wrote, why it ran and whether an
 * extension supplied the summary.
 */
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: CompactionEntry;
	fromExtension: boolean;
	reason: "manual" | "threshold" | "overflow";
	/** Whether the interrupted request is retried after this compaction (overflow recovery). */
	willRetry: boolean;
}
/**
 * Payload of `session_compact_failed`: a compaction did not complete, with why it ran, whether it was aborted and
 * the error.
 */
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
/**
 * Payload of `session_before_tree`: the prepared `/tree` navigation (target, entries to summarize) before it
 * happens.
 */
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
/**
 * Payload of `session_tree`: `/tree` navigation moved the session leaf, with the old and new leaf and the branch
 * summary it wrote, if any.
 */
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	fromExtension?: boolean;
}
/**
 * Payload of `session_shutdown`: the session is about to be torn down, with the reason (quit, reload, new, resume
 * or fork).
 */
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}

/** What a `session_before_switch` handler may return: `{ cancel: true }` keeps the current session. */
export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
/** What a `session_before_fork` handler may return: `{ cancel: true }` stops the fork. */
export interface SessionBeforeForkResult {
	cancel?: boolean;
}
/**
 * What a `session_before_compact` handler may return: cancel the compaction, or provide the compaction result to
 * use instead of the model's summary.
 */
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
/**
 * What a `session_before_tree` handler may return: cancel the navigation, supply the branch summary, or change the
 * summarization instructions and label.
 */
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown; usage?: Usage };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
