export { branchHasContext, fromBranchEnd, projectBranchTail } from "./branch-end.js";
export { extractBranchEntries } from "./branch-extraction.js";
export { UnreadableSessionEntryError } from "./deferred-body.js";
export { deleteSessionFile } from "./deletion.js";
export { type ForkResult, forkSession } from "./forking.js";
export {
	CURRENT_SESSION_VERSION,
	isSessionHeader,
	parseSessionEntries,
	serializeEntry,
	UnsupportedSessionVersionError,
} from "./format.js";
export { assertValidSessionId, createSessionId, generateId } from "./ids.js";
export { findMostRecentSession, type ListProgress, readSessionInfo } from "./listing.js";
export { bashExecutionText, convertToLlm } from "./llm-messages.js";
export {
	type LoadedSessionFile,
	type LoadSessionOptions,
	loadEntriesFromFile,
	loadSessionFile,
	MAX_SESSION_HEADER_SCAN_BYTES,
	type RawLine,
	readSessionHeader,
} from "./loader.js";
export {
	encodeCwd,
	getDefaultSessionDir,
	resolveSessionDir,
	type SessionDirSources,
	sessionFileName,
} from "./location.js";
export type { SessionLockHolder } from "./lock.js";
export {
	READ_ONLY_WARNING,
	type ReadonlySessionManager,
	SessionManager,
	type SessionManagerOptions,
} from "./manager.js";
export type {
	AppendableMessage,
	BashExecutionMessage,
	BranchSummaryMessage,
	CompactionSummaryMessage,
	CustomMessage,
	LlmMessage,
	SessionMessage,
} from "./messages.js";
export { migrateSessionEntries } from "./migrate.js";
export {
	getBranchSelection,
	type NavigationSummary,
	navigateSessionTree,
	navigationTarget,
	type TreeNavigationResult,
} from "./navigation.js";
export { buildSessionPath } from "./path.js";
export { getPiSessionsRoot, importPiSessions, type PiImportOptions, type PiImportReport } from "./pi-import.js";
export {
	buildContextEntries,
	buildSessionContext,
	buildSessionProjection,
	getLatestCompactionEntry,
	projectContextEntry,
	sessionEntryToContextMessages,
} from "./projection.js";
export { repairTornHeader } from "./rewrite.js";
export { type ResolvedSessionArgument, resolveSessionArgument } from "./session-lookup.js";
export { nodeSessionFileSystem, type SessionFileSystem } from "./storage.js";
export type * from "./types.js";
export {
	appendVirtualModelState,
	getVirtualModelState,
	VIRTUAL_MODEL_STATE_ENTRY,
} from "./virtual-model-state.js";
