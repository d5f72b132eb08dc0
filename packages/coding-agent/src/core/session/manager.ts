import { chmodSync, copyFileSync, existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { getCurrentSystemMessage } from "@tau/ai";
import { APP_NAME } from "../../config/app-identity.js";
import { getAgentDir } from "../../config/paths.js";
import { countNoun } from "../text/count-noun.js";
import { extractBranchEntries, type ResolvedLabel } from "./branch-extraction.js";
import {
	CURRENT_SESSION_VERSION,
	entriesOf,
	isSessionHeader,
	serializeEntry,
	UnsupportedSessionVersionError,
} from "./format.js";
import { assertValidSessionId, createSessionId, generateId } from "./ids.js";
import { findMostRecentSession, findSessionById, type ListProgress, listAllSessions, listSessions } from "./listing.js";
import { loadAppendedEntries, loadSessionFile, readSessionHeader } from "./loader.js";
import { getDefaultSessionDirPath, resolveCwd, samePath, sessionFileName } from "./location.js";
import { DEFAULT_LOCK_STALE_MS, describeLockedSession, SessionLock, type SessionLockHolder } from "./lock.js";
import type { AppendableMessage, ImageContent, TextContent, Usage } from "./messages.js";
import { headerVersion, migrateSessionEntries } from "./migrate.js";
import { walkToRoot } from "./path.js";
import {
	buildContextEntries,
	buildSessionProjection,
	type ExtensibleProjection,
	extendProjection,
	projectExtensibly,
} from "./projection.js";
import { rewriteMigratedFile, writeForkedSessionFile } from "./rewrite.js";
import {
	makeSessionDir,
	nodeSessionFileSystem,
	replaceSessionFile,
	SESSION_FILE_MODE,
	type SessionFileSystem,
	SessionFileWriter,
} from "./storage.js";
import { buildSessionTree } from "./tree.js";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	ContextEditableContent,
	ContextEditEntry,
	CustomEntry,
	CustomMessageEntry,
	FileEntry,
	FsyncPolicy,
	LabelEntry,
	ModelChangeEntry,
	NewSessionOptions,
	SessionContext,
	SessionDiagnostic,
	SessionEntry,
	SessionHeader,
	SessionInfo,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionProjection,
	SessionStorageOptions,
	SessionTreeNode,
	ThinkingLevelChangeEntry,
	UsageEntry,
} from "./types.js";

/** Storage options plus the replaceable file system (for hosts that observe writes, and fault tests). */
export interface SessionManagerOptions extends SessionStorageOptions {
	fileSystem?: SessionFileSystem;
	/** Open without ever writing: no lock, no repair, appends throw. */
	readOnly?: boolean;
}

/** The read-only view handed to extensions. */
export type ReadonlySessionManager = Pick<
	SessionManager,
	| "getCwd"
	| "getSessionDir"
	| "getSessionId"
	| "getSessionFile"
	| "getLeafId"
	| "getLeafEntry"
	| "getEntry"
	| "getLabel"
	| "getBranch"
	| "buildContextEntries"
	| "buildSessionProjection"
	| "getHeader"
	| "getEntries"
	| "getTree"
	| "getSessionName"
>;

const CONVERSATION_ROLES = new Set(["user", "assistant"]);
const EDITABLE_MESSAGE_ROLES = new Set(["user", "assistant", "toolResult"]);
export const READ_ONLY_WARNING = "Session is open in another process; opened read-only";

function isConversationEntry(entry: SessionEntry): boolean {
	return entry.type === "message" && CONVERSATION_ROLES.has(entry.message?.role);
}

function isImportant(entry: SessionEntry): boolean {
	return entry.type === "compaction" || (entry.type === "message" && entry.message?.role === "assistant");
}

/**
 * The active branch as of one state of the tree. Entries are only ever appended (a rollback pops the
 * entry it just pushed; a reset replaces the arrays), so the entry array, its length (with the last
 * entry as a check), the index and the leaf together identify the state; the agent loop reads the
 * branch several times per turn. Appends that continue the branch from its leaf extend it in place.
 */
interface ActivePathCache {
	entries: readonly SessionEntry[];
	count: number;
	last: SessionEntry | undefined;
	byId: ReadonlyMap<string, SessionEntry>;
	leafId: string;
	path: SessionEntry[];
	/** Ids on `path`: an appended entry reusing one would change the walk, so it forces a rebuild. */
	pathIds: Set<string>;
	projection?: ExtensibleProjection;
}

/**
 * The session tree of one JSONL file: the single authority for model context. Every append is a child
 * of the current leaf; memory is updated first and rolled back when the write fails, so nothing in
 * memory ever points at an entry that did not reach the disk.
 */
export class SessionManager {
	private header!: SessionHeader;
	private entries: SessionEntry[] = [];
	private byId = new Map<string, SessionEntry>();
	private labels = new Map<string, ResolvedLabel>();
	private leafId: string | null = null;
	private sessionName: string | undefined;
	private conversation = false;
	private sessionFile: string | undefined;
	private flushed = false;
	private writer: SessionFileWriter | undefined;
	private lock: SessionLock | undefined;
	private readOnlyReason: string | undefined;
	private lockHolder: SessionLockHolder | undefined;
	private diagnostics: SessionDiagnostic[] = [];
	private readonly fsync: FsyncPolicy;
	private readonly fs: SessionFileSystem;
	private activePath: ActivePathCache | undefined;

	private constructor(
		private cwd: string,
		private sessionDir: string,
		private readonly persist: boolean,
		private readonly options: SessionManagerOptions,
	) {
		this.fsync = options.fsync ?? "off";
		this.fs = options.fileSystem ?? nodeSessionFileSystem;
	}

	// ---- factories ----------------------------------------------------------------------------

	/** A new persisted session; the file is created on the first user or assistant message. */
	static create(
		cwd: string,
		sessionDir?: string,
		options?: NewSessionOptions,
		storage: SessionManagerOptions = {},
	): SessionManager {
		const absoluteCwd = resolveCwd(cwd);
		const dir = sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(absoluteCwd, storage.agentDir);
		const manager = new SessionManager(absoluteCwd, dir, true, storage);
		manager.newSession(options);
		return manager;
	}

	/** Opens a session file (missing: new session bound to that path; empty: initialized with a header). */
	static open(
		path: string,
		sessionDir?: string,
		cwdOverride?: string,
		storage: SessionManagerOptions = {},
	): SessionManager {
		const absolute = resolve(path);
		const headerCwd = existsSync(absolute) ? readSessionHeader(absolute)?.cwd : undefined;
		const cwd = resolveCwd(cwdOverride ?? (headerCwd || process.cwd()));
		const manager = new SessionManager(cwd, sessionDir ? resolve(sessionDir) : dirname(absolute), true, storage);
		manager.setSessionFile(absolute);
		return manager;
	}

	/** The most recent session of `cwd` (by file mtime, header cwd must match), or a new one. */
	static continueRecent(cwd: string, sessionDir?: string, storage: SessionManagerOptions = {}): SessionManager {
		const absoluteCwd = resolveCwd(cwd);
		const dir = sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(absoluteCwd, storage.agentDir);
		const recent = findMostRecentSession(dir, absoluteCwd);
		return recent
			? SessionManager.open(recent, dir, undefined, storage)
			: SessionManager.create(cwd, dir, {}, storage);
	}

	/** A session that never touches the disk. Entries with a header are loaded (and migrated) as a file would be. */
	static inMemory(
		cwd: string = process.cwd(),
		options?: NewSessionOptions,
		entries?: readonly FileEntry[],
	): SessionManager {
		const manager = new SessionManager(resolveCwd(cwd), "", false, {});
		if (entries && isSessionHeader(entries[0])) {
			manager.loadFileEntries(entries.map((entry) => ({ ...entry })) as FileEntry[]);
			return manager;
		}
		manager.newSession(options);
		for (const entry of entries ?? []) manager.indexAppended(entry as SessionEntry);
		if (manager.entries.length > 0) manager.leafId = manager.entries[manager.entries.length - 1]!.id;
		return manager;
	}

	/** Copies a whole session (every branch) into a new session for `targetCwd`. */
	static forkFrom(
		sourcePath: string,
		targetCwd: string,
		sessionDir?: string,
		options?: NewSessionOptions,
		storage: SessionManagerOptions = {},
	): SessionManager {
		const absoluteCwd = resolveCwd(targetCwd);
		const dir = sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(absoluteCwd, storage.agentDir);
		if (options?.id !== undefined) assertValidSessionId(options.id);
		const path = writeForkedSessionFile(
			resolve(sourcePath),
			absoluteCwd,
			dir,
			options?.id ?? createSessionId(),
			storage.fileSystem,
		);
		return SessionManager.open(path, dir, undefined, storage);
	}

	static findById(cwd: string, id: string, sessionDir?: string, agentDir?: string): string | undefined {
		const absoluteCwd = resolveCwd(cwd);
		const dir = sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(absoluteCwd, agentDir);
		return findSessionById(dir, id, absoluteCwd);
	}

	static list(
		cwd: string,
		sessionDir?: string,
		onProgress?: ListProgress,
		signal?: AbortSignal,
		agentDir?: string,
	): Promise<SessionInfo[]> {
		const absoluteCwd = resolveCwd(cwd);
		const dir = sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(absoluteCwd, agentDir);
		return listSessions(dir, absoluteCwd, onProgress, signal);
	}

	/** Every session under `<agentDir>/sessions`, or every session of one custom dir (unfiltered). */
	static listAll(
		sessionDir?: string,
		onProgress?: ListProgress,
		signal?: AbortSignal,
		agentDir: string = getAgentDir(),
	): Promise<SessionInfo[]> {
		return listAllSessions({ sessionDir, agentDir }, onProgress, signal);
	}

	// ---- lifecycle ----------------------------------------------------------------------------

	/** Starts a fresh session (new header, no entries) in the current session dir. Returns its path. */
	newSession(options: NewSessionOptions = {}): string | undefined {
		if (options.id !== undefined) assertValidSessionId(options.id);
		this.releaseFile();
		const header: SessionHeader = {
			type: "session",
			version: CURRENT_SESSION_VERSION,
			id: options.id ?? createSessionId(),
			timestamp: new Date().toISOString(),
			cwd: this.cwd,
		};
		if (options.parentSession) header.parentSession = options.parentSession;
		this.resetState(header);
		this.sessionFile = this.persist ? join(this.sessionDir, sessionFileName(header.timestamp, header.id)) : undefined;
		return this.sessionFile;
	}

	/** Switches to another file: a missing file starts a new session there, an empty one gets a header. */
	setSessionFile(path: string): void {
		const absolute = resolve(path);
		this.releaseFile();
		this.diagnostics = [];
		const loaded = loadSessionFile(absolute);
		if (!loaded.exists) {
			this.newSession();
			this.sessionFile = absolute;
			return;
		}
		if (loaded.size === 0) {
			this.newSession();
			this.sessionFile = absolute;
			this.becomeWriter(() => {
				const content = serializeEntry(this.header);
				replaceSessionFile(absolute, content, this.fs);
				return Buffer.byteLength(content);
			});
			this.flushed = true;
			return;
		}
		if (!loaded.isSession) throw new Error(`Session file is not a valid ${APP_NAME} session: ${absolute}`);
		this.sessionFile = absolute;
		if (loaded.rawLines.length > 0) {
			const lines = loaded.rawLines.map((raw) => raw.line).join(", ");
			this.warn(`Skipped ${loaded.rawLines.length} unparseable line(s) in ${absolute} (line ${lines})`);
		}
		const version = headerVersion(loaded.entries);
		// A newer format could mean anything: refuse it rather than misread it (and never rewrite it).
		if (version > CURRENT_SESSION_VERSION) throw new UnsupportedSessionVersionError(absolute, version);
		migrateSessionEntries(loaded.entries);
		this.loadFileEntries(loaded.entries);
		this.flushed = true;
		if (this.options.readOnly) {
			this.readOnlyReason = `Session ${absolute} was opened read-only`;
			return;
		}
		this.becomeWriter(() => {
			if (version < CURRENT_SESSION_VERSION) {
				try {
					return rewriteMigratedFile(absolute, version, loaded.entries, loaded.rawLines, this.fs);
				} catch (error) {
					const reason = `Could not rewrite migrated session file ${absolute}: ${(error as Error).message}`;
					this.readOnlyReason = `${reason}; opened read-only`;
					this.error(reason);
					return undefined;
				}
			}
			if (loaded.unterminated) {
				// The last line lost its newline (crash mid-append): end it so the next entry gets its own line.
				const fd = this.fs.openSync(absolute, "a");
				try {
					this.fs.writeSync(fd, "\n");
				} finally {
					this.fs.closeSync(fd);
				}
				return loaded.size + 1;
			}
			return loaded.size;
		});
	}

	/** Closes the file and releases the writer lock. The manager stays readable. */
	dispose(): void {
		this.releaseFile();
	}

	isPersisted(): boolean {
		return this.persist;
	}
	isReadOnly(): boolean {
		return this.readOnlyReason !== undefined;
	}
	/** Why nothing can be appended (another process holds the file, read-only open, lost lock). */
	getReadOnlyReason(): string | undefined {
		return this.readOnlyReason;
	}
	/** The process holding this session's lock, when that is why this view is read-only. */
	getLockHolder(): SessionLockHolder | undefined {
		return this.lockHolder;
	}
	getDiagnostics(): readonly SessionDiagnostic[] {
		return this.diagnostics;
	}
	getCwd(): string {
		return this.cwd;
	}
	getSessionDir(): string {
		return this.persist ? this.sessionDir : "";
	}
	getSessionId(): string {
		return this.header.id;
	}
	getSessionFile(): string | undefined {
		return this.sessionFile;
	}
	getHeader(): SessionHeader | null {
		return this.header;
	}
	usesDefaultSessionDir(): boolean {
		return this.persist && samePath(this.sessionDir, getDefaultSessionDirPath(this.cwd, this.options.agentDir));
	}

	// ---- appends ------------------------------------------------------------------------------

	appendMessage(message: AppendableMessage): string {
		const role = (message as { role: string }).role;
		if (role === "branchSummary" || role === "compactionSummary") {
			throw new Error(`Messages with role ${role} exist only in projections and cannot be appended`);
		}
		return this.append<SessionMessageEntry>({ type: "message", message }).id;
	}

	appendThinkingLevelChange(thinkingLevel: string): string {
		return this.append<ThinkingLevelChangeEntry>({ type: "thinking_level_change", thinkingLevel }).id;
	}

	appendModelChange(provider: string, modelId: string): string {
		return this.append<ModelChangeEntry>({ type: "model_change", provider, modelId }).id;
	}

	appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
		return this.append<UsageEntry>(
			note ? { type: "usage", kind, provider, model, usage, note } : { type: "usage", kind, provider, model, usage },
		);
	}

	/** Appends a compaction; `null` as first kept id means "keep nothing before it". Stores the system checkpoint. */
	appendCompaction<T = unknown>(
		summary: string,
		firstKeptEntryId: string | null,
		tokensBefore: number,
		details?: T,
		fromHook?: boolean,
		usage?: Usage,
	): string {
		const id = generateId(this.byId);
		const timestamp = new Date().toISOString();
		const entry: CompactionEntry<T> = {
			type: "compaction",
			id,
			parentId: this.leafId,
			timestamp,
			summary,
			firstKeptEntryId: firstKeptEntryId ?? id,
			tokensBefore,
		};
		if (details !== undefined) entry.details = details;
		if (usage !== undefined) entry.usage = usage;
		if (fromHook !== undefined) entry.fromHook = fromHook;
		const checkpoint = getCurrentSystemMessage(this.buildSessionProjection().messages);
		if (checkpoint) entry.systemMessage = { ...checkpoint, timestamp: Date.parse(timestamp) };
		this.appendEntry(entry);
		return id;
	}

	appendCustomEntry<T = unknown>(customType: string, data?: T): string {
		return this.append<CustomEntry<T>>(
			data === undefined ? { type: "custom", customType } : { type: "custom", customType, data },
		).id;
	}

	/** Names the session; CR/LF runs become one space, an empty name clears it. */
	appendSessionInfo(name: string): string {
		const clean = name.replace(/[\r\n]+/g, " ").trim();
		const entry = this.append<SessionInfoEntry>({ type: "session_info", name: clean });
		return entry.id;
	}

	appendCustomMessageEntry<T = unknown>(
		customType: string,
		content: string | (TextContent | ImageContent)[],
		display: boolean,
		details?: T,
	): string {
		const entry: Omit<CustomMessageEntry<T>, "id" | "parentId" | "timestamp"> = {
			type: "custom_message",
			customType,
			content,
			display,
		};
		if (details !== undefined) entry.details = details;
		return this.append<CustomMessageEntry<T>>(entry).id;
	}

	/** Replaces (or with `null` omits) an entry's model content on this branch; the entry itself is untouched. */
	appendContextEdit(targetId: string, replacement: { content: ContextEditableContent } | null): string {
		const content = replacement === null ? null : (replacement as { content?: unknown } | undefined)?.content;
		if (replacement !== null && !(typeof content === "string" || Array.isArray(content))) {
			throw new Error("Context edit replacement must be null or contain string/array content");
		}
		const target = this.byId.get(targetId);
		if (!target) throw new Error(`Entry ${targetId} not found`);
		if (!this.getBranch().some((entry) => entry.id === targetId)) {
			throw new Error(`Entry ${targetId} is not on the active branch`);
		}
		const editable =
			target.type === "custom_message" ||
			(target.type === "message" && EDITABLE_MESSAGE_ROLES.has(target.message?.role));
		if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
		let stored = replacement;
		if (
			replacement !== null &&
			typeof content === "string" &&
			target.type === "message" &&
			(target.message.role === "assistant" || target.message.role === "toolResult")
		) {
			stored = { content: [{ type: "text", text: content }] };
		}
		return this.append<ContextEditEntry>({ type: "context_edit", targetId, replacement: stored }).id;
	}

	/** Sets (or with an empty/missing label clears) a bookmark. The label entry becomes the leaf. */
	appendLabelChange(targetId: string, label?: string): string {
		if (!this.byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		// The label is stored as given: an empty one clears, and is written as "" like Pi does.
		const entry = this.append<LabelEntry>({ type: "label", targetId, label });
		return entry.id;
	}

	/** Moves the leaf to `fromId` (`null`: a new root) and appends a branch summary there. */
	branchWithSummary<T = unknown>(
		fromId: string | null,
		summary: string,
		details?: T,
		fromHook?: boolean,
		usage?: Usage,
	): string {
		if (fromId !== null && !this.byId.has(fromId)) throw new Error(`Entry ${fromId} not found`);
		const previousLeaf = this.leafId;
		const entry: Omit<BranchSummaryEntry<T>, "id" | "parentId" | "timestamp"> = {
			type: "branch_summary",
			fromId: previousLeaf ?? "root",
			summary,
		};
		if (details !== undefined) entry.details = details;
		if (usage !== undefined) entry.usage = usage;
		if (fromHook !== undefined) entry.fromHook = fromHook;
		this.leafId = fromId;
		try {
			return this.append<BranchSummaryEntry<T>>(entry).id;
		} catch (error) {
			this.leafId = previousLeaf;
			throw error;
		}
	}

	// ---- navigation ---------------------------------------------------------------------------

	getLeafId(): string | null {
		return this.leafId;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.leafId === null ? undefined : this.byId.get(this.leafId);
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}
	getChildren(parentId: string | null): SessionEntry[] {
		return this.entries.filter((entry) => entry.parentId === parentId);
	}
	getLabel(id: string): string | undefined {
		return this.labels.get(id)?.label;
	}
	getEntryCount(): number {
		return this.byId.size;
	}
	/** Shallow copy without the header; the entries themselves must be treated as immutable. */
	getEntries(): SessionEntry[] {
		return [...this.entries];
	}
	getSessionName(): string | undefined {
		return this.sessionName;
	}

	/** Root-first path to `fromId` (default: the leaf); `[]` for a null leaf or an unknown id. */
	getBranch(fromId?: string): SessionEntry[] {
		if (fromId === undefined || fromId === this.leafId) {
			const active = this.activeBranch();
			if (active) return [...active.path];
		}
		const id = fromId ?? this.leafId;
		if (id === null) return [];
		const start = this.byId.get(id);
		return start ? walkToRoot(start, this.byId, (message) => this.warn(message)) : [];
	}

	/**
	 * The cached walk from the leaf, rebuilt when the tree or the leaf changed. Undefined when there is
	 * no leaf entry, or when the walk warned (a cycle): those are rebuilt, and reported, on every read.
	 */
	private activeBranch(): ActivePathCache | undefined {
		const cached = this.activePath;
		if (
			cached &&
			cached.entries === this.entries &&
			cached.byId === this.byId &&
			cached.count <= this.entries.length &&
			cached.last === this.entries[cached.count - 1]
		) {
			if (cached.count === this.entries.length && cached.leafId === this.leafId) return cached;
			if (this.extendActiveBranch(cached)) return cached;
		}
		this.activePath = undefined;
		const start = this.leafId === null ? undefined : this.byId.get(this.leafId);
		if (!start) return undefined;
		const warnings: string[] = [];
		const path = walkToRoot(start, this.byId, (message) => warnings.push(message));
		if (warnings.length > 0) return undefined;
		this.activePath = {
			entries: this.entries,
			count: this.entries.length,
			last: this.entries.at(-1),
			byId: this.byId,
			leafId: start.id,
			path,
			pathIds: new Set(path.map((entry) => entry.id)),
		};
		return this.activePath;
	}

	/**
	 * Extends the cached branch in place when every entry appended since is the child of the one before
	 * it, starting at the cached leaf and ending at the current leaf, with a fresh id: exactly what
	 * walking from the new leaf would add. False (cache untouched) otherwise.
	 */
	private extendActiveBranch(cached: ActivePathCache): boolean {
		const appended = this.entries.slice(cached.count);
		let parentId = cached.leafId;
		for (const entry of appended) {
			if (entry.parentId !== parentId || this.byId.get(entry.id) !== entry || cached.pathIds.has(entry.id)) {
				return false;
			}
			parentId = entry.id;
		}
		if (parentId !== this.leafId) return false;
		if (cached.projection && !extendProjection(cached.projection, appended)) cached.projection = undefined;
		for (const entry of appended) {
			cached.path.push(entry);
			cached.pathIds.add(entry.id);
		}
		cached.count = this.entries.length;
		cached.last = this.entries.at(-1);
		cached.leafId = parentId;
		return true;
	}

	branch(id: string): void {
		if (!this.byId.has(id)) throw new Error(`Entry ${id} not found`);
		this.leafId = id;
	}

	resetLeaf(): void {
		this.leafId = null;
	}

	/**
	 * The whole tree: roots are entries with a null, self or missing parent (and one entry of any parent
	 * cycle); children sorted by timestamp. Nodes are fresh copies.
	 */
	getTree(): SessionTreeNode[] {
		return buildSessionTree(this.byId.values(), this.labels, (message) => this.warn(message));
	}

	buildContextEntries(): SessionEntry[] {
		return buildContextEntries(this.entries, this.leafId, this.byId, (message) => this.warn(message));
	}
	/** A fresh top-level copy each call (callers may keep or extend the arrays); the cached one stays intact. */
	buildSessionProjection(): SessionProjection {
		const active = this.activeBranch();
		if (!active) {
			return buildSessionProjection(this.entries, this.leafId, this.byId, (message) => this.warn(message));
		}
		active.projection ??= projectExtensibly(active.path);
		const { entries, messages, thinkingLevel, model } = active.projection.projection;
		return { entries: [...entries], messages: [...messages], thinkingLevel, model };
	}
	/** From the cached projection of the active branch: startup asks for it more than once. */
	buildSessionContext(): SessionContext {
		const { messages, thinkingLevel, model } = this.buildSessionProjection();
		return { messages, thinkingLevel, model };
	}

	/**
	 * Switches this manager to a new session holding only root..`leafId` (labels re-created at the end).
	 * Persisted: the file is written now if the path holds a conversation. Returns the new path.
	 */
	createBranchedSession(leafId: string): string | undefined {
		const path = this.getBranch(leafId);
		if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
		const entries = extractBranchEntries(path, this.labels);
		const previousFile = this.sessionFile;
		this.newSession(this.persist && previousFile ? { parentSession: previousFile } : {});
		for (const entry of entries) this.indexAppended(entry);
		this.leafId = entries[entries.length - 1]!.id;
		if (this.persist && this.sessionFile && this.conversation) {
			const file = this.sessionFile;
			this.becomeWriter(() => {
				const content = [this.header, ...this.entries].map(serializeEntry).join("");
				replaceSessionFile(file, content, this.fs);
				return Buffer.byteLength(content);
			});
			this.flushed = true;
		}
		return this.sessionFile;
	}

	/** Copies a session file into this manager's session dir (`name-1.jsonl` on collision) and returns the copy's path. */
	importSessionFile(sourcePath: string): string {
		const source = resolve(sourcePath);
		const name = basename(source, ".jsonl");
		let target = join(this.sessionDir, `${name}.jsonl`);
		if (samePath(source, target)) return target;
		makeSessionDir(this.sessionDir, this.fs);
		for (let n = 1; existsSync(target); n++) target = join(this.sessionDir, `${name}-${n}.jsonl`);
		copyFileSync(source, target, 1 /* COPYFILE_EXCL */);
		chmodSync(target, SESSION_FILE_MODE);
		return target;
	}

	// ---- internals ----------------------------------------------------------------------------

	private append<T extends SessionEntry>(fields: Omit<T, "id" | "parentId" | "timestamp">): T {
		const { type, ...rest } = fields as { type: string };
		const entry = {
			type,
			id: generateId(this.byId),
			parentId: this.leafId,
			timestamp: new Date().toISOString(),
			...rest,
		} as unknown as T;
		this.appendEntry(entry);
		return entry;
	}

	/** Memory first (so a first flush writes everything), rolled back if the write fails. */
	private appendEntry(entry: SessionEntry): void {
		if (this.readOnlyReason) throw new Error(this.readOnlyReason);
		this.absorbForeignAppends();
		const previousLeaf = this.leafId;
		const hadConversation = this.conversation;
		const replaced = this.byId.get(entry.id);
		this.entries.push(entry);
		this.byId.set(entry.id, entry);
		this.leafId = entry.id;
		if (isConversationEntry(entry)) this.conversation = true;
		try {
			this.persistEntry(entry);
		} catch (error) {
			this.entries.pop();
			if (replaced) this.byId.set(entry.id, replaced);
			else this.byId.delete(entry.id);
			this.leafId = previousLeaf;
			this.conversation = hadConversation;
			throw error;
		}
		this.indexMetadata(entry);
	}

	private persistEntry(entry: SessionEntry): void {
		if (!this.persist || !this.sessionFile) return;
		if (this.flushed) {
			this.writer!.append(serializeEntry(entry), isImportant(entry));
			return;
		}
		if (!this.conversation) return;
		const file = this.sessionFile;
		const lines = [this.header, ...this.entries].map(serializeEntry);
		this.becomeWriter(() => {
			const writer = new SessionFileWriter(file, this.fsync, this.fs);
			writer.createExclusive(lines);
			return writer.expectedSize;
		});
		this.flushed = true;
	}

	/**
	 * Takes the writer lock and runs `prepare` (which returns the file size it leaves, or undefined when
	 * the session must stay read-only). Another live process holding the lock makes this view read-only.
	 */
	private becomeWriter(prepare: () => number | undefined): void {
		const file = this.sessionFile!;
		if (this.options.lock !== false && !this.lock) {
			makeSessionDir(dirname(file), this.fs);
			const lock = SessionLock.tryAcquire(file, this.options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS, (error) => {
				this.readOnlyReason = `Lost the lock of session ${file} (${error.message}); it is read-only now`;
				this.error(this.readOnlyReason);
			});
			if (!lock) {
				this.lockHolder = SessionLock.holderOf(file) ?? { pid: undefined, hostname: undefined };
				this.readOnlyReason = describeLockedSession(file, this.lockHolder);
				this.warn(READ_ONLY_WARNING);
				if (!this.flushed) throw new Error(`${READ_ONLY_WARNING}: ${file}`);
				return;
			}
			this.lock = lock;
		}
		let size: number | undefined;
		try {
			size = prepare();
		} catch (error) {
			this.releaseLock();
			throw error;
		}
		if (size === undefined) {
			this.releaseLock();
			return;
		}
		this.writer = new SessionFileWriter(file, this.fsync, this.fs);
		this.writer.attach(size);
	}

	/** Another program (e.g. pi) appended to our file: index its entries before ours, keep our leaf. */
	private absorbForeignAppends(): void {
		if (!this.writer || !this.sessionFile) return;
		let size: number;
		try {
			size = statSync(this.sessionFile).size;
		} catch {
			return;
		}
		if (size <= this.writer.expectedSize) return;
		const appended = loadAppendedEntries(this.sessionFile, this.writer.expectedSize);
		const leaf = this.leafId;
		for (const entry of entriesOf(appended.entries)) {
			this.warnOnDuplicate(entry);
			this.indexAppended(entry);
		}
		this.leafId = leaf;
		this.writer.attach(size);
		if (!appended.endsWithNewline) this.writer.append("\n", false);
		this.warn(
			`Session file was appended to by another process; reloaded ${countNoun(appended.entries.length, "entry", "entries")}`,
		);
	}

	private loadFileEntries(fileEntries: FileEntry[]): void {
		const header = fileEntries[0] as SessionHeader;
		this.resetState(header);
		for (const entry of entriesOf(fileEntries)) {
			this.warnOnDuplicate(entry);
			this.indexAppended(entry);
		}
		this.leafId = this.entries.length > 0 ? this.entries[this.entries.length - 1]!.id : null;
	}

	private warnOnDuplicate(entry: SessionEntry): void {
		if (this.byId.has(entry.id)) this.warn(`Duplicate entry id ${entry.id}; the later entry is used`);
	}

	private indexAppended(entry: SessionEntry): void {
		this.entries.push(entry);
		this.byId.set(entry.id, entry);
		this.leafId = entry.id;
		if (isConversationEntry(entry)) this.conversation = true;
		this.indexMetadata(entry);
	}

	private indexMetadata(entry: SessionEntry): void {
		if (entry.type === "label") {
			if (entry.label) this.labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
			else this.labels.delete(entry.targetId);
		} else if (entry.type === "session_info") {
			const name = typeof entry.name === "string" ? entry.name.trim() : "";
			this.sessionName = name === "" ? undefined : name;
		}
	}

	private resetState(header: SessionHeader): void {
		this.header = header;
		this.entries = [];
		this.byId = new Map();
		this.labels = new Map();
		this.leafId = null;
		this.sessionName = undefined;
		this.conversation = false;
		this.flushed = false;
		this.readOnlyReason = undefined;
		this.lockHolder = undefined;
	}

	private releaseFile(): void {
		this.writer?.close();
		this.writer = undefined;
		this.releaseLock();
	}

	private releaseLock(): void {
		this.lock?.release();
		this.lock = undefined;
	}

	private warn(message: string): void {
		this.diagnostics.push({ level: "warning", message });
	}

	private error(message: string): void {
		this.diagnostics.push({ level: "error", message });
	}
}
