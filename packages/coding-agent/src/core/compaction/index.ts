export {
	type BranchEntries,
	type BranchSource,
	type BranchSummaryOptions,
	type BranchSummaryResult,
	collectEntriesForBranchSummary,
	generateBranchSummary,
	type PreparedBranchEntries,
	prepareBranchEntries,
} from "./branch-summary.js";
export { type CompactSessionOptions, compactSession } from "./compact-session.js";
export { type CutPoint, findProjectedCutPoint } from "./cut-point.js";
export {
	type CompactionCheck,
	type CompactionDecision,
	decideCompaction,
	LENGTH_RECOVERY_FAILED,
	OVERFLOW_RECOVERY_FAILED,
} from "./decision.js";
export {
	type ContextTokenEstimate,
	calculateContextTokens,
	ESTIMATED_IMAGE_CHARS,
	estimateContextTokens,
	estimateProjectedContextTokens,
	estimateTokens,
	getLastAssistantUsage,
	shouldCompact,
} from "./estimation.js";
export {
	computeFileLists,
	createFileOperations,
	extractFileOperations,
	type FileOperations,
	formatFileLists,
} from "./file-operations.js";
export { type CompactionPreparation, prepareCompaction } from "./preparation.js";
export { omitFailedAttempt } from "./recovery.js";
export { serializeConversation } from "./serialization.js";
export { type CutPointResult, findCutPoint, findTurnStartIndex } from "./session-entry-cuts.js";
export {
	buildHistoryPrompt,
	buildTurnPrefixPrompt,
	type CompactionResult,
	compact,
	completeSummarization,
	getSummarizationFailure,
	SummarizationAbortedError,
	type SummarizationOptions,
	type SummaryCompletion,
	type SummaryLabel,
	summaryMaxTokens,
} from "./summarizer.js";
export { generateSummary, generateSummaryWithUsage } from "./summary-generation.js";
