import { getCurrentSystemMessage } from "@tau/ai";
import type { ImageContent, TextContent, Usage } from "./messages.js";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	ContextEditableContent,
	CustomMessageEntry,
	SessionEntry,
	SessionProjection,
} from "./types.js";

/** What a caller supplies for an entry; the manager adds id, parent and timestamp. */
export type EntryFields<T extends SessionEntry> = Omit<T, "id" | "parentId" | "timestamp">;

const EDITABLE_MESSAGE_ROLES = new Set(["user", "assistant", "toolResult"]);

/** Entries worth an fsync under the "important" policy: what a crash would cost a model call to redo. */
export function isImportant(entry: SessionEntry): boolean {
	return entry.type === "compaction" || (entry.type === "message" && entry.message?.role === "assistant");
}

/** Copies each optional field only when given, so absent ones stay absent in the file (as Pi writes them). */
function withOptional<T extends object>(entry: T, optional: Record<string, unknown>): T {
	for (const [key, value] of Object.entries(optional)) {
		if (value !== undefined) (entry as Record<string, unknown>)[key] = value;
	}
	return entry;
}

export interface CompactionInput<T> {
	id: string;
	parentId: string | null;
	timestamp: string;
	summary: string;
	/** `null`: keep nothing before the compaction (the entry names itself). */
	firstKeptEntryId: string | null;
	tokensBefore: number;
	details?: T;
	fromHook?: boolean;
	usage?: Usage;
}

/** A compaction entry carrying the branch's current system message as its checkpoint. */
export function compactionEntry<T>(input: CompactionInput<T>, branch: SessionProjection): CompactionEntry<T> {
	const { id, parentId, timestamp, summary, firstKeptEntryId, tokensBefore, details, fromHook, usage } = input;
	const entry: CompactionEntry<T> = withOptional(
		{ type: "compaction", id, parentId, timestamp, summary, firstKeptEntryId: firstKeptEntryId ?? id, tokensBefore },
		{ details, usage, fromHook },
	);
	const checkpoint = getCurrentSystemMessage(branch.messages);
	if (checkpoint) entry.systemMessage = { ...checkpoint, timestamp: Date.parse(timestamp) };
	return entry;
}

export function branchSummaryFields<T>(
	fromId: string,
	summary: string,
	optional: { details?: T; usage?: Usage; fromHook?: boolean },
): EntryFields<BranchSummaryEntry<T>> {
	return withOptional({ type: "branch_summary", fromId, summary }, optional);
}

export function customMessageFields<T>(
	customType: string,
	content: string | (TextContent | ImageContent)[],
	display: boolean,
	details?: T,
): EntryFields<CustomMessageEntry<T>> {
	return withOptional({ type: "custom_message", customType, content, display }, { details });
}

/**
 * Validates a context edit of `target` (which must be on the active branch and carry model content)
 * and returns the replacement as stored: assistant and tool-result text becomes a text block.
 */
export function contextEditReplacement(
	targetId: string,
	target: SessionEntry | undefined,
	onBranch: () => boolean,
	replacement: { content: ContextEditableContent } | null,
): { content: ContextEditableContent } | null {
	const content = replacement === null ? null : (replacement as { content?: unknown } | undefined)?.content;
	if (replacement !== null && !(typeof content === "string" || Array.isArray(content))) {
		throw new Error("Context edit replacement must be null or contain string/array content");
	}
	if (!target) throw new Error(`Entry ${targetId} not found`);
	if (!onBranch()) throw new Error(`Entry ${targetId} is not on the active branch`);
	const editable =
		target.type === "custom_message" ||
		(target.type === "message" && EDITABLE_MESSAGE_ROLES.has(target.message?.role));
	if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
	if (
		replacement !== null &&
		typeof content === "string" &&
		target.type === "message" &&
		(target.message.role === "assistant" || target.message.role === "toolResult")
	) {
		return { content: [{ type: "text", text: content }] };
	}
	return replacement;
}
