import type { Agent } from "@tau/agent";
import {
	type Api,
	type AssistantMessage,
	isContextOverflow,
	isRetryableAssistantError,
	type Model,
	retryDelayMs,
	zeroUsage,
} from "@tau/ai";
import type { SettingsManager } from "../../config/index.js";
import { type CompactionDecision, decideCompaction, omitFailedAttempt } from "../compaction/index.js";
import type { SessionManager } from "../session/index.js";
import type { CompactionCoordinator } from "./compaction-coordinator.js";
import type { AgentSessionEvent } from "./events.js";
import type { SessionPersistence } from "./persistence.js";

/** Abortable wait used for retry backoff; tests inject one that resolves without real time passing. */
export type RetrySleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: RetrySleep = (ms, signal) =>
	new Promise((resolve, reject) => {
		if (signal.aborted) return reject(new Error("aborted"));
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(new Error("aborted"));
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});

export interface RecoveryHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly persistence: SessionPersistence;
	readonly compaction: CompactionCoordinator;
	emit(event: AgentSessionEvent): void;
	sleep: RetrySleep;
	/** The model a message was produced by (for its window), if it is still known. */
	modelOf(message: AssistantMessage): Model<Api> | undefined;
	/** The model currently selected (messages from another model are not overflow). */
	currentModel(): Model<Api> | undefined;
	refreshContext(): void;
}

/**
 * Session-level retries of transient provider failures: consecutive-failure counter, exponential
 * backoff (2 s, 4 s, 8 s by default), the failed attempt hidden through `context_edit`.
 */
export class RetryPolicy {
	private attempt = 0;
	private sleepController: AbortController | undefined;

	constructor(private readonly host: RecoveryHost) {}

	get retryAttempt(): number {
		return this.attempt;
	}

	get isRetrying(): boolean {
		return this.attempt > 0;
	}

	abortSleep(): void {
		this.sleepController?.abort();
	}

	/** Whether a failed message qualifies: an error with text, not an overflow, and classified transient. */
	isRetryable(message: AssistantMessage): boolean {
		if (message.stopReason !== "error" || !message.errorMessage) return false;
		const window = this.host.modelOf(message)?.contextWindow;
		if (isContextOverflow(message, window)) return false;
		return isRetryableAssistantError(message);
	}

	/** `agent_end.willRetry`: enabled, budget left and the message retryable. */
	willRetry(message: AssistantMessage | undefined, aborted: boolean): boolean {
		if (aborted || !message) return false;
		const settings = this.host.settingsManager.getRetrySettings();
		return settings.enabled && this.attempt < settings.maxRetries && this.isRetryable(message);
	}

	/** Emits `auto_retry_start`, hides the attempt and sleeps; false when disabled, exhausted or cancelled. */
	async prepareRetry(message: AssistantMessage): Promise<boolean> {
		const settings = this.host.settingsManager.getRetrySettings();
		if (!settings.enabled) return false;
		if (this.attempt + 1 > settings.maxRetries) return false;
		this.attempt++;
		const delayMs = retryDelayMs(settings, this.attempt);
		this.host.emit({
			type: "auto_retry_start",
			attempt: this.attempt,
			maxAttempts: settings.maxRetries,
			delayMs,
			errorMessage: message.errorMessage || "Unknown error",
		});
		omitAttempt(this.host, message);
		const controller = new AbortController();
		this.sleepController = controller;
		try {
			await this.host.sleep(delayMs, controller.signal);
		} catch {
			this.finishCancelled();
			return false;
		} finally {
			this.sleepController = undefined;
		}
		return true;
	}

	/** A non-error response ended a retry sequence. */
	succeeded(): void {
		if (this.attempt === 0) return;
		this.host.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
		this.attempt = 0;
	}

	failed(finalError: string): void {
		if (this.attempt === 0) return;
		this.host.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError });
		this.attempt = 0;
	}

	finishCancelled(): void {
		this.failed("Retry cancelled");
	}
}

/** Hides a failed assistant attempt and the tool results answering it from model context. */
export function omitAttempt(host: RecoveryHost, message: AssistantMessage): string[] {
	const entryId = host.persistence.entryIdOf(message);
	if (!entryId) throw new Error("The failed response has no session entry; it cannot be omitted from context");
	const edits = host.persistence.appendAnnounced(() => omitFailedAttempt(host.sessionManager, entryId));
	host.refreshContext();
	return edits;
}

/**
 * Undoes an omission when the recovery it prepared could not run: the failed response becomes the
 * run's visible outcome again (so hosts such as print mode report the error instead of silence).
 */
function restoreAttempt(host: RecoveryHost, editIds: readonly string[]): void {
	const { sessionManager } = host;
	host.persistence.appendAnnounced(() => {
		for (const editId of editIds) {
			const edit = sessionManager.getEntry(editId);
			if (edit?.type !== "context_edit") continue;
			const target = sessionManager.getEntry(edit.targetId);
			if (target?.type !== "message") continue;
			const content = (target.message as { content: unknown }).content;
			sessionManager.appendContextEdit(target.id, { content: content as never });
		}
	});
	host.refreshContext();
}

/** Ends the run with an assistant error carrying `errorMessage`, persisted and announced like any message. */
function appendRecoveryError(host: RecoveryHost, failed: AssistantMessage, errorMessage: string): void {
	const message: AssistantMessage = {
		role: "assistant",
		content: [],
		api: failed.api,
		provider: failed.provider,
		model: failed.model,
		usage: zeroUsage(),
		stopReason: "error",
		errorMessage,
		timestamp: Date.now(),
	};
	host.emit({ type: "message_start", message });
	host.persistence.persistMessage(message);
	host.refreshContext();
	host.emit({ type: "message_end", message });
}

/**
 * The compaction side of recovery (docs/design/session-runtime.md#recovery): overflow compact-and-retry once per user input,
 * recoverable length truncation, and threshold compaction.
 */
export class OverflowRecovery {
	private attempted = false;
	/** The response whose exhausted recovery was reported; the next prompt's check must not report it again. */
	private reportedFailure: AssistantMessage | undefined;

	constructor(private readonly host: RecoveryHost) {}

	/** A new user message (or a clean response) resets the one-shot recovery. */
	reset(): void {
		this.attempted = false;
		this.reportedFailure = undefined;
	}

	/** Between turns of one run: only threshold compaction, so long runs compact before they overflow. */
	async compactIfThresholdExceeded(message: AssistantMessage): Promise<void> {
		const decision = this.decide(message, true);
		if (decision?.action === "compact" && decision.reason === "threshold") {
			await this.host.compaction.compactAutomatically("threshold", false, () => false);
		}
	}

	/** Returns whether the run should continue (a retry after compaction, or queued messages). */
	async check(message: AssistantMessage, postRun: boolean): Promise<boolean> {
		const { host } = this;
		const decision = this.decide(message, postRun);
		if (!decision) return false;
		const hasQueued = () => host.agent.hasQueuedMessages();
		switch (decision.action) {
			case "none":
				return false;
			case "fail":
				if (this.reportedFailure && sameResponse(this.reportedFailure, message)) return false;
				this.reportedFailure = message;
				await host.compaction.reportFailure("overflow", false, decision.errorMessage);
				return false;
			case "compact": {
				if (decision.reason === "threshold" || !decision.willRetry) {
					return host.compaction.compactAutomatically(decision.reason, false, hasQueued);
				}
				this.attempted = true;
				const omitted =
					message.stopReason === "error" || message.stopReason === "length" ? omitAttempt(host, message) : [];
				const outcome = await host.compaction.compactWithOutcome("overflow", true, hasQueued);
				if (outcome.proceed) return true;
				if (omitted.length > 0) restoreAttempt(host, omitted);
				// A truncated answer is not an error by itself: without this the run would settle looking
				// merely cut off (or empty), so the recovery failure becomes the run's final message.
				if (message.stopReason === "length" && outcome.errorMessage !== undefined) {
					appendRecoveryError(host, message, outcome.errorMessage);
				}
				return false;
			}
		}
	}

	private decide(message: AssistantMessage, postRun: boolean): CompactionDecision | undefined {
		const { host } = this;
		const settings = host.settingsManager.getCompactionSettings(host.currentModel());
		const producer = host.modelOf(message);
		const current = host.currentModel();
		const sameModel =
			producer !== undefined &&
			current !== undefined &&
			producer.provider === current.provider &&
			producer.id === current.id;
		const limits = producer ?? current;
		if (!limits) return undefined;
		const decision = decideCompaction({
			message,
			branch: host.sessionManager.getBranch(),
			projection: host.sessionManager.buildSessionProjection(),
			settings,
			contextWindow: limits.contextWindow,
			maxTokens: limits.maxTokens,
			sameModel,
			recoveryAttempted: this.attempted,
			postRun,
		});
		return decision;
	}
}

/** The projection rebuilds message objects from the session, so identity alone cannot tell them apart. */
function sameResponse(a: AssistantMessage, b: AssistantMessage): boolean {
	return a === b || (a.timestamp === b.timestamp && a.provider === b.provider && a.model === b.model);
}
