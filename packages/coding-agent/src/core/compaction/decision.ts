import { type AssistantMessage, isContextOverflow, isRecoverableLength } from "@tau/ai";
import type { CompactionSettings } from "../../config/settings/index.js";
import type { SessionEntry, SessionProjection } from "../session/types.js";
import {
	calculateContextTokens,
	estimateContextTokens,
	estimateProjectedContextTokens,
	shouldCompact,
} from "./estimation.js";

export const OVERFLOW_RECOVERY_FAILED =
	"Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";
export const LENGTH_RECOVERY_FAILED = "Truncated response recovery failed after one compact-and-retry attempt.";

export interface CompactionCheck {
	/** The assistant message that just ended. */
	message: AssistantMessage;
	/** Active branch (root first) and its projection, after the message was persisted. */
	branch: readonly SessionEntry[];
	projection: SessionProjection;
	settings: CompactionSettings;
	/** Window and output limit of the model that produced the message. */
	contextWindow: number;
	maxTokens: number;
	/** False when the user switched models since the message was requested: no overflow handling then. */
	sameModel: boolean;
	/** A compact-and-retry already happened for the current user input. */
	recoveryAttempted: boolean;
	/** After a finished run (aborted messages are ignored); before a prompt they are checked too. */
	postRun: boolean;
}

export type CompactionDecision =
	| { action: "none" }
	| { action: "compact"; reason: "overflow" | "threshold"; willRetry: boolean }
	| { action: "fail"; errorMessage: string };

const NONE: CompactionDecision = { action: "none" };

/** Whether, how and why to compact after an assistant message (the automatic-compaction decision table). */
export function decideCompaction(check: CompactionCheck): CompactionDecision {
	const { message, branch, projection, settings } = check;
	if (!settings.enabled) return NONE;
	if (check.postRun && message.stopReason === "aborted") return NONE;
	const sameMessage = (candidate: { role: string; timestamp?: number }) =>
		candidate === message || (candidate.role === "assistant" && candidate.timestamp === message.timestamp);
	const sourceIndex = branch.findLastIndex((entry) => entry.type === "message" && sameMessage(entry.message));
	// Staleness follows entry order, never clock time: an answer written in the same millisecond as a
	// compaction is still newer than it. A message missing from the branch counts as older.
	const latestCompaction = branch.findLastIndex((entry) => entry.type === "compaction");
	if (latestCompaction !== -1 && latestCompaction > sourceIndex) return NONE;
	const after = sourceIndex === -1 ? [] : branch.slice(sourceIndex + 1);
	const editsAfter = after.some((entry) => entry.type === "context_edit");
	const latestEdit = after
		.filter((entry) => entry.type === "context_edit" && entry.targetId === branch[sourceIndex]?.id)
		.at(-1);
	const projected = projection.messages.some(sameMessage);

	let overflow = false;
	let recoverableLength = false;
	if (check.sameModel) {
		if (message.stopReason === "error") {
			const omitted = latestEdit?.type === "context_edit" && latestEdit.replacement === null;
			overflow = isContextOverflow(message) && !omitted;
		} else if (projected && !editsAfter) {
			overflow = isContextOverflow(message, check.contextWindow);
		}
		recoverableLength = projected && !overflow && isRecoverableLength(message, check.maxTokens);
	}
	if (overflow || recoverableLength) {
		if (message.stopReason === "stop") return { action: "compact", reason: "overflow", willRetry: false };
		if (check.recoveryAttempted) {
			return { action: "fail", errorMessage: overflow ? OVERFLOW_RECOVERY_FAILED : LENGTH_RECOVERY_FAILED };
		}
		return { action: "compact", reason: "overflow", willRetry: true };
	}

	const entryIndexOf = (projected: object): number => {
		const source = projection.entries.find((entry) => entry.messages.includes(projected as never))?.sourceEntry;
		return source ? branch.findIndex((entry) => entry.id === source.id) : -1;
	};
	let contextTokens: number;
	if (projection.entries.some((entry) => entry.sourceEntry.type === "context_edit")) {
		contextTokens = estimateProjectedContextTokens(projection, branch).tokens;
	} else if (message.stopReason === "error" || calculateContextTokens(message.usage) === 0) {
		const estimate = estimateContextTokens(projection.messages);
		const usedMessage = estimate.lastUsageIndex === null ? undefined : projection.messages[estimate.lastUsageIndex];
		if (usedMessage && latestCompaction !== -1 && entryIndexOf(usedMessage) < latestCompaction) return NONE;
		contextTokens = estimate.tokens;
	} else {
		contextTokens = calculateContextTokens(message.usage);
	}
	return shouldCompact(contextTokens, check.contextWindow, settings)
		? { action: "compact", reason: "threshold", willRetry: false }
		: NONE;
}
