import type { Api, Model, RetryPolicy } from "@tau/ai";
import type { SettingsManager } from "../../config/index.js";
import {
	type CompactionPreparation,
	compactSession,
	estimateTokens,
	type SummaryCompletion,
} from "../compaction/index.js";
import { errorMessage } from "../errors.js";
import type { ExtensionRunner, SessionBeforeCompactResult } from "../extensions/index.js";
import type { CompactionEntry, SessionManager } from "../session/index.js";
import type { AgentSessionEvent, CompactionReason, SessionCompactionResult } from "./events.js";

export interface CompactionHost {
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	model(): Model<Api> | undefined;
	thinkingLevel(): string;
	complete: SummaryCompletion;
	runner(): ExtensionRunner | undefined;
	emit(event: AgentSessionEvent): void;
	/** Re-derives the agent's message cache from the session after the tree changed. */
	refreshContext(): void;
	retryPolicy(): RetryPolicy;
}

/** Whether the run continues after an automatic compaction; `errorMessage` when it failed (not cancelled). */
export interface AutomaticCompactionOutcome {
	proceed: boolean;
	errorMessage?: string;
}

/** What one attempt asked for and how far it got, for `session_compact_failed`. */
interface CompactionAttempt {
	willRetry: boolean;
	fromExtension: boolean;
}

/** Thrown for a compaction cancelled by `session_before_compact` or an abort; reported without an error text. */
class CompactionCancelled extends Error {
	constructor() {
		super("Compaction cancelled");
	}
}

/**
 * Manual and automatic compaction with their events: `compaction_start`, `session_before_compact`
 * (cancel or supply the result), the entry, `session_compact`, `compaction_end`, and on failure
 * `session_compact_failed`.
 */
export class CompactionCoordinator {
	private controller: AbortController | undefined;
	private manualRunning = false;

	constructor(private readonly host: CompactionHost) {}

	get isCompacting(): boolean {
		return this.controller !== undefined;
	}

	get isManualCompacting(): boolean {
		return this.manualRunning;
	}

	abort(): void {
		this.controller?.abort();
	}

	/** `/compact`: the caller has already aborted the run. Throws on failure after reporting it. */
	async compactManually(customInstructions?: string): Promise<SessionCompactionResult> {
		this.manualRunning = true;
		try {
			this.host.emit({ type: "compaction_start", reason: "manual" });
			const controller = new AbortController();
			this.controller = controller;
			const attempt: CompactionAttempt = { willRetry: false, fromExtension: false };
			try {
				const model = this.host.model();
				if (!model) throw new Error("No model selected. Use /model to select a model before compacting.");
				const result = await this.run(model, "manual", attempt, controller.signal, customInstructions);
				this.host.emit({ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false });
				return result;
			} catch (error) {
				const aborted = error instanceof CompactionCancelled || controller.signal.aborted;
				const failure = aborted ? undefined : `Compaction failed: ${errorMessage(error)}`;
				await this.reportFailure("manual", aborted, failure, attempt);
				throw error;
			} finally {
				this.controller = undefined;
			}
		} finally {
			this.manualRunning = false;
		}
	}

	/**
	 * Threshold or overflow compaction. Returns whether the run should continue (`willRetry`, or
	 * messages are queued as reported by `hasQueuedMessages`).
	 */
	async compactAutomatically(
		reason: Exclude<CompactionReason, "manual">,
		willRetry: boolean,
		hasQueuedMessages: () => boolean,
	): Promise<boolean> {
		return (await this.compactWithOutcome(reason, willRetry, hasQueuedMessages)).proceed;
	}

	/** As `compactAutomatically`, also telling why a compaction that ran did not succeed. */
	async compactWithOutcome(
		reason: Exclude<CompactionReason, "manual">,
		willRetry: boolean,
		hasQueuedMessages: () => boolean,
	): Promise<AutomaticCompactionOutcome> {
		const model = this.host.model();
		if (!model) return { proceed: false };
		this.host.emit({ type: "compaction_start", reason });
		const controller = new AbortController();
		this.controller = controller;
		const attempt: CompactionAttempt = { willRetry, fromExtension: false };
		try {
			const result = await this.run(model, reason, attempt, controller.signal);
			this.host.emit({ type: "compaction_end", reason, result, aborted: false, willRetry });
			return { proceed: willRetry || hasQueuedMessages() };
		} catch (error) {
			const aborted = error instanceof CompactionCancelled || controller.signal.aborted;
			const prefix = reason === "overflow" ? "Context overflow recovery failed" : "Auto-compaction failed";
			const failure = aborted ? undefined : `${prefix}: ${errorMessage(error)}`;
			await this.reportFailure(reason, aborted, failure, attempt);
			return failure === undefined ? { proceed: false } : { proceed: false, errorMessage: failure };
		} finally {
			this.controller = undefined;
		}
	}

	/**
	 * `compaction_end` without a result plus `session_compact_failed` (also for recovery that could not
	 * run). The extension event keeps what the attempt asked for (`willRetry`) and whether an extension
	 * had supplied its summary; `compaction_end.willRetry` is false since no retry follows.
	 */
	async reportFailure(
		reason: CompactionReason,
		aborted: boolean,
		errorMessage: string | undefined,
		attempt: CompactionAttempt = { willRetry: false, fromExtension: false },
	): Promise<void> {
		const end: AgentSessionEvent = { type: "compaction_end", reason, result: undefined, aborted, willRetry: false };
		if (errorMessage !== undefined) end.errorMessage = errorMessage;
		this.host.emit(end);
		const failed: { type: string; [key: string]: unknown } = {
			type: "session_compact_failed",
			reason,
			aborted,
			willRetry: attempt.willRetry,
			fromExtension: attempt.fromExtension,
		};
		if (errorMessage !== undefined) failed.errorMessage = errorMessage;
		await this.host.runner()?.emit(failed);
	}

	private async run(
		model: Model<Api>,
		reason: CompactionReason,
		attempt: CompactionAttempt,
		signal: AbortSignal,
		customInstructions?: string,
	): Promise<SessionCompactionResult> {
		const { host } = this;
		const runner = host.runner();
		const { willRetry } = attempt;
		const entry: CompactionEntry = await compactSession(host.sessionManager, {
			model,
			settings: host.settingsManager.getCompactionSettings(model),
			complete: host.complete,
			thinkingLevel: host.thinkingLevel(),
			signal,
			retry: host.retryPolicy(),
			retryCallbacks: {
				onRetryScheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
					host.emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
				onRetryAttemptStart: () =>
					host.emit({ type: "summarization_retry_attempt_start", source: "compaction", reason }),
				onRetryFinished: () => host.emit({ type: "summarization_retry_finished" }),
			},
			...(customInstructions !== undefined ? { customInstructions } : {}),
			provideResult: async (preparation: CompactionPreparation) => {
				if (!runner?.hasHandlers("session_before_compact")) return undefined;
				const outcome = (await runner.emit({
					type: "session_before_compact",
					preparation,
					branchEntries: host.sessionManager.getBranch(),
					customInstructions,
					reason,
					willRetry,
					signal,
				})) as SessionBeforeCompactResult | undefined;
				if (outcome?.cancel) throw new CompactionCancelled();
				if (outcome?.compaction) attempt.fromExtension = true;
				return outcome?.compaction;
			},
		});
		if (signal.aborted) throw new CompactionCancelled();
		host.refreshContext();
		let estimatedTokensAfter = 0;
		for (const message of host.sessionManager.buildSessionProjection().messages) {
			estimatedTokensAfter += estimateTokens(message);
		}
		await runner?.emit({
			type: "session_compact",
			compactionEntry: entry,
			fromExtension: attempt.fromExtension,
			reason,
			willRetry,
		});
		const result: SessionCompactionResult = {
			summary: entry.summary,
			firstKeptEntryId: entry.firstKeptEntryId,
			tokensBefore: entry.tokensBefore,
			estimatedTokensAfter,
			details: (entry.details ?? { readFiles: [], modifiedFiles: [] }) as SessionCompactionResult["details"],
		};
		if (entry.usage) result.usage = entry.usage;
		return result;
	}
}
