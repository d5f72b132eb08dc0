import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { APP_NAME } from "../../config/app-identity.js";
import { getAgentDir } from "../../config/paths.js";
import { countNoun } from "../text/count-noun.js";
import { extractBranchEntries } from "./branch-extraction.js";
import {
	branchSummaryFields,
	compactionEntry,
	contextEditReplacement,
	customMessageFields,
	type EntryFields,
	isImportant,
} from "./entry-fields.js";
import { copySessionFileInto } from "./file-import.js";
import { CURRENT_SESSION_VERSION, isSessionHeader, serializeEntry, UnsupportedSessionVersionError } from "./format.js";
import { assertValidSessionId, createSessionId, generateId } from "./ids.js";
import { findMostRecentSession, findSessionById, type ListProgress, listAllSessions, listSessions } from "./listing.js";
import { loadAppendedEntries, loadSessionFile, readSessionHeader, unparseableLinesWarning } from "./loader.js";
import { getDefaultSessionDirPath, resolveCwd, samePath, sessionFileName } from "./location.js";
import { DEFAULT_LOCK_STALE_MS, describeLockedSession, SessionLock, type SessionLockHolder } from "./lock.js";
import type { AppendableMessage, ImageContent, TextContent, Usage } from "./messages.js";
import { headerVersion, migrateSessionEntries } from "./migrate.js";
import { prepareForAppends, writeForkedSessionFile } from "./rewrite.js";
import { isConversationEntry, SessionTree } from "./session-tree.js";
import {
	makeSessionDir,
	nodeSessionFileSystem,
	replaceSessionFile,
	type SessionFileSystem,
	SessionFileWriter,
} from "./storage.js";
import type {
	BranchSummaryEntry,
	ContextEditableContent,
	ContextEditEntry,
	CustomEntry,
	FileEntry,
	FsyncPolicy,
	LabelEntry,
	ModelChangeEntry,
	NewSessionOptions,
	SessionEntry,
	SessionHeader,
	SessionInfo,
	SessionInfoEntry,
	SessionMessageEntry,
	SessionStorageOptions,
	ThinkingLevelChangeEntry,
	UsageEntry,
} from "./types.js";

/** Storage options plus the replaceable file system (for hosts that observe writes, and fault tests). */
export interface SessionManagerOptions extends SessionStorageOptions {
	fileSystem?: SessionFileSystem;
	/** Open without ever writing: no lock, no repair, appends throw. */
	readOnly?: boolean;
	/**
	 * Read message bodies on first use (not for a read-only open or a file to migrate); see
	 * `readDeferredBodies()` and docs/design/session-runtime.md#opening-a-long-session.
	 */
	deferBodies?: boolean;
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

export const READ_ONLY_WARNING = "Session is open in another process; opened read-only";

/** The given session dir, or the default one of `cwd` under the agent dir. */
function sessionDirOf(cwd: string, sessionDir: string | undefined, agentDir: string | undefined): string {
	return sessionDir ? resolve(sessionDir) : getDefaultSessionDirPath(cwd, agentDir);
}

/**
 * The session tree of one JSONL file: the single authority for model context. Every append is a child
 * of the current leaf; memory is updated first and rolled back when the write fails, so nothing in
 * memory ever points at an entry that did not reach the disk.
 */
export class SessionManager extends SessionTree {
	private header!: SessionHeader;
	private sessionFile: string | undefined;
	private flushed = false;
	private writer: SessionFileWriter | undefined;
	private lock: SessionLock | undefined;
	private readOnlyReason: string | undefined;
	private lockHolder: SessionLockHolder | undefined;
	private readonly fsync: FsyncPolicy;
	private readonly fs: SessionFileSystem;

	private constructor(
		private cwd: string,
		private sessionDir: string,
		private readonly persist: boolean,
		private readonly options: SessionManagerOptions,
	) {
		super();
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
		const dir = sessionDirOf(absoluteCwd, sessionDir, storage.agentDir);
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
		const dir = sessionDirOf(absoluteCwd, sessionDir, storage.agentDir);
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
		// Each indexed entry becomes the leaf, so the last one ends as the leaf.
		for (const entry of entries ?? []) manager.indexAppended(entry as SessionEntry);
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
		const dir = sessionDirOf(absoluteCwd, sessionDir, storage.agentDir);
		if (options?.id !== undefined) assertValidSessionId(options.id);
		const id = options?.id ?? createSessionId();
		const path = writeForkedSessionFile(resolve(sourcePath), absoluteCwd, dir, id, storage.fileSystem);
		return SessionManager.open(path, dir, undefined, storage);
	}

	static findById(cwd: string, id: string, sessionDir?: string, agentDir?: string): string | undefined {
		const absoluteCwd = resolveCwd(cwd);
		const dir = sessionDirOf(absoluteCwd, sessionDir, agentDir);
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
		const dir = sessionDirOf(absoluteCwd, sessionDir, agentDir);
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
		const loaded = loadSessionFile(absolute, { deferBodies: this.options.deferBodies && !this.options.readOnly });
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
		const skippedLines = loaded.rawLines.map((raw) => raw.line);
		if (skippedLines.length > 0) this.warn(unparseableLinesWarning(absolute, skippedLines));
		const version = headerVersion(loaded.entries);
		// A newer format could mean anything: refuse it rather than misread it (and never rewrite it).
		if (version > CURRENT_SESSION_VERSION) throw new UnsupportedSessionVersionError(absolute, version);
		migrateSessionEntries(loaded.entries);
		this.loadFileEntries(loaded.entries);
		if (loaded.deferred) {
			const warning = skippedLines.length > 0 ? this.diagnostics[0] : undefined;
			this.deferredLoad = { bodies: loaded.deferred, path: absolute, skippedLines, warning };
		}
		this.flushed = true;
		if (this.options.readOnly) {
			this.readOnlyReason = `Session ${absolute} was opened read-only`;
			return;
		}
		this.becomeWriter(() => {
			try {
				return prepareForAppends(absolute, loaded, version, this.fs);
			} catch (error) {
				if (version >= CURRENT_SESSION_VERSION) throw error;
				const reason = `Could not rewrite migrated session file ${absolute}: ${(error as Error).message}`;
				this.readOnlyReason = `${reason}; opened read-only`;
				this.error(reason);
				return undefined;
			}
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
		const input = { id: generateId(this.byId), parentId: this.leafId, timestamp: new Date().toISOString() };
		const fields = { summary, firstKeptEntryId, tokensBefore, details, fromHook, usage };
		this.appendEntry(compactionEntry({ ...input, ...fields }, this.buildSessionProjection()));
		return input.id;
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
		return this.append(customMessageFields(customType, content, display, details)).id;
	}

	/** Replaces (or with `null` omits) an entry's model content on this branch; the entry itself is untouched. */
	appendContextEdit(targetId: string, replacement: { content: ContextEditableContent } | null): string {
		const onBranch = () => this.getBranch().some((entry) => entry.id === targetId);
		const stored = contextEditReplacement(targetId, this.byId.get(targetId), onBranch, replacement);
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
		const entry = branchSummaryFields(previousLeaf ?? "root", summary, { details, usage, fromHook });
		this.leafId = fromId;
		try {
			return this.append<BranchSummaryEntry<T>>(entry).id;
		} catch (error) {
			this.leafId = previousLeaf;
			throw error;
		}
	}

	// ---- branching ----------------------------------------------------------------------------

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
		return copySessionFileInto(resolve(sourcePath), this.sessionDir, this.fs);
	}

	// ---- internals ----------------------------------------------------------------------------

	private append<T extends SessionEntry>(fields: EntryFields<T>): T {
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
		this.indexLoaded(appended.entries);
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
		this.indexLoaded(fileEntries);
	}

	private resetState(header: SessionHeader): void {
		this.header = header;
		this.resetTree();
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
}
