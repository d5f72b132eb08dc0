import { entryTimeMs } from "./format.js";
import type { SessionMessage } from "./messages.js";
import { buildSessionPath, type WalkWarning } from "./path.js";
import type {
	CompactionEntry,
	ContextEditEntry,
	ModelSelection,
	ProjectedSessionEntry,
	SessionContext,
	SessionEntry,
	SessionProjection,
} from "./types.js";

/**
 * The active branch filtered through its latest compaction: the compaction, then the kept range
 * (without system messages, which the checkpoint supersedes), then everything after it.
 */
export function buildContextEntries(
	entries: readonly SessionEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, SessionEntry>,
	onWarning?: WalkWarning,
): SessionEntry[] {
	return contextOfPath(buildSessionPath(entries, leafId, byId, onWarning));
}

function contextOfPath(path: SessionEntry[], compactionIndex = latestCompactionIndex(path)): SessionEntry[] {
	if (compactionIndex === -1) return path;
	const compaction = path[compactionIndex] as CompactionEntry;
	const result: SessionEntry[] = [compaction];
	let kept = false;
	for (let i = 0; i < compactionIndex; i++) {
		const entry = path[i]!;
		if (entry.id === compaction.firstKeptEntryId) kept = true;
		if (kept && !(entry.type === "message" && entry.message?.role === "system")) result.push(entry);
	}
	for (let i = compactionIndex + 1; i < path.length; i++) result.push(path[i]!);
	return result;
}

function latestCompactionIndex(entries: readonly SessionEntry[]): number {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.type === "compaction") return i;
	return -1;
}

/** The last compaction entry in an entry list. */
export function getLatestCompactionEntry(entries: readonly SessionEntry[]): CompactionEntry | undefined {
	const index = latestCompactionIndex(entries);
	return index === -1 ? undefined : (entries[index] as CompactionEntry);
}

/** Model messages one stored entry contributes before context edits. */
export function sessionEntryToContextMessages(entry: SessionEntry): SessionMessage[] {
	switch (entry.type) {
		case "message":
			return entry.message ? [normalizeMessageContent(entry.message)] : [];
		case "custom_message":
			return [
				{
					role: "custom",
					customType: entry.customType,
					content: entry.content ?? [],
					display: entry.display,
					details: entry.details,
					timestamp: entryTimeMs(entry),
				},
			];
		case "branch_summary":
			return entry.summary
				? [{ role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: entryTimeMs(entry) }]
				: [];
		case "compaction": {
			const summary: SessionMessage = {
				role: "compactionSummary",
				summary: entry.summary,
				tokensBefore: entry.tokensBefore,
				timestamp: entryTimeMs(entry),
			};
			return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
		}
		default:
			return [];
	}
}

const CONTENT_ROLES = new Set(["system", "user", "assistant", "toolResult"]);

/** Old or hand-edited files may hold `content: null`; the projection gets a normalized copy. */
function normalizeMessageContent(message: SessionMessage): SessionMessage {
	if (!CONTENT_ROLES.has(message.role)) return message;
	const content = (message as { content?: unknown }).content;
	if (content !== null && content !== undefined) return message;
	return { ...message, content: message.role === "system" ? "" : [] } as SessionMessage;
}

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** Messages of one context entry with its latest context edit applied (`null` replacement omits it). */
export function projectContextEntry(entry: SessionEntry, edit?: ContextEditEntry): SessionMessage[] {
	const base = sessionEntryToContextMessages(entry);
	if (!edit) return base;
	if (edit.replacement === null) return [];
	const content = edit.replacement.content;
	return base.map((message) => {
		if (!EDITABLE_ROLES.has(message.role)) return message;
		const wrapped =
			typeof content === "string" && (message.role === "assistant" || message.role === "toolResult")
				? [{ type: "text", text: content }]
				: content;
		return { ...message, content: wrapped } as SessionMessage;
	});
}

type PathSettings = { thinkingLevel: string; model: ModelSelection | null };

/** One step of the settings fold: what `entry` changes about the thinking level and model. */
function applySettings(settings: PathSettings, entry: SessionEntry): void {
	if (entry.type === "thinking_level_change") settings.thinkingLevel = entry.thinkingLevel;
	else if (entry.type === "model_change") settings.model = { provider: entry.provider, modelId: entry.modelId };
	else if (entry.type === "message" && entry.message?.role === "assistant") {
		settings.model = { provider: entry.message.provider, modelId: entry.message.model };
	}
}

/** Thinking level and model implied by the full path (not the compaction-filtered list). */
export function settingsFromPath(path: readonly SessionEntry[]): PathSettings {
	const settings: PathSettings = { thinkingLevel: "off", model: null };
	for (const entry of path) applySettings(settings, entry);
	return settings;
}

/** Context entries with provenance: each projected entry keeps the untouched stored entry. */
export function buildSessionProjection(
	entries: readonly SessionEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, SessionEntry>,
	onWarning?: WalkWarning,
): SessionProjection {
	return projectSessionPath(buildSessionPath(entries, leafId, byId, onWarning));
}

/** The projection of an already walked root-first path (see `buildSessionProjection`). */
export function projectSessionPath(path: SessionEntry[]): SessionProjection {
	return projectExtensibly(path).projection;
}

/**
 * A projection plus the context edits it applied, so entries appended below its leaf can be added
 * without projecting the path again (see `extendProjection`). The owner must not hand out its arrays.
 */
export interface ExtensibleProjection {
	readonly projection: SessionProjection;
	readonly edits: ReadonlyMap<string, ContextEditEntry>;
}

/**
 * Each entry with the messages it contributes under the given context edits (default: the edits among
 * the entries); only a leading compaction contributes its summary.
 */
export function projectEntries(
	entries: readonly SessionEntry[],
	edits: ReadonlyMap<string, ContextEditEntry> = new Map(
		entries.flatMap((entry) => (entry.type === "context_edit" ? [[entry.targetId, entry] as const] : [])),
	),
): ProjectedSessionEntry[] {
	const noEdits = edits.size === 0;
	return entries.map((entry, i) => ({
		sourceEntry: entry,
		messages:
			entry.type === "compaction" && i > 0
				? []
				: projectContextEntry(entry, noEdits ? undefined : edits.get(entry.id)),
	}));
}

/**
 * One pass over the path for the settings and the latest compaction, one over the context to project
 * it; the context edits are collected only when the path has any.
 */
export function projectExtensibly(path: SessionEntry[]): ExtensibleProjection {
	const settings: PathSettings = { thinkingLevel: "off", model: null };
	let compactionIndex = -1;
	let edited = false;
	for (let i = 0; i < path.length; i++) {
		const entry = path[i]!;
		applySettings(settings, entry);
		if (entry.type === "compaction") compactionIndex = i;
		else if (entry.type === "context_edit") edited = true;
	}
	const context = contextOfPath(path, compactionIndex);
	const edits = new Map<string, ContextEditEntry>();
	if (edited) for (const entry of context) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
	const projected = projectEntries(context, edits);
	const messages: SessionMessage[] = [];
	for (const entry of projected) for (const message of entry.messages) messages.push(message);
	const projection = { entries: projected, messages, thinkingLevel: settings.thinkingLevel, model: settings.model };
	return { projection, edits };
}

/**
 * Adds `appended` (a chain continuing the projected path from its leaf) in place, as projecting the
 * longer path would. False, with nothing changed, when an appended entry is a compaction or a context
 * edit: those reshape earlier context, so the caller projects the path again.
 */
export function extendProjection(state: ExtensibleProjection, appended: readonly SessionEntry[]): boolean {
	if (appended.some((entry) => entry.type === "compaction" || entry.type === "context_edit")) return false;
	const { projection, edits } = state;
	for (const entry of appended) {
		applySettings(projection, entry);
		const messages = projectContextEntry(entry, edits.get(entry.id));
		projection.entries.push({ sourceEntry: entry, messages });
		projection.messages.push(...messages);
	}
	return true;
}

/**
 * The model context of a session branch: walks from the leaf (the current one by default) to the root and applies
 * compactions, summaries and context edits.
 */
export function buildSessionContext(
	entries: readonly SessionEntry[],
	leafId?: string | null,
	byId?: ReadonlyMap<string, SessionEntry>,
	onWarning?: WalkWarning,
): SessionContext {
	const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId, onWarning);
	return { messages, thinkingLevel, model };
}
