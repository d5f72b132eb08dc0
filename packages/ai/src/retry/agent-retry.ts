import type { AssistantMessage } from "../types/messages.js";
import { abortableSleep } from "../utils/abort.js";
import { isRetryableAssistantError } from "./retryable-error.js";

/** When the agent retries a failed turn: whether at all, how often, the base delay and the longest delay it waits. */
export interface RetryPolicy {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	maxAgentDelayMs?: number;
}

/** The default cap of the agent's delay between retries of a failed turn, in milliseconds. */
export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60000;

/** Callbacks that report the agent's retries of a failed turn: scheduled, started and finished. */
export interface RetryCallbacks {
	onRetryScheduled?(attempt: number, maxRetries: number, delayMs: number, errorMessage: string): void;
	onRetryAttemptStart?(): void;
	onRetryFinished?(success: boolean, attempt: number): void;
}

/** Exponential backoff for retry `attempt` (1-based), capped; safe for huge attempt numbers. */
export function retryDelayMs(policy: Pick<RetryPolicy, "baseDelayMs" | "maxAgentDelayMs">, attempt: number): number {
	const cap = policy.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS;
	const exponent = Math.max(0, attempt - 1);
	const delay = policy.baseDelayMs * 2 ** Math.min(exponent, 1024);
	return Number.isFinite(delay) ? Math.min(delay, cap) : cap;
}

/**
 * Calls `produce` until it yields a non-retryable response or the retry budget is spent. An abort during the
 * backoff returns the last response marked aborted.
 */
export async function retryAssistantCall(
	produce: () => Promise<AssistantMessage>,
	policy?: RetryPolicy,
	signal?: AbortSignal,
	callbacks: RetryCallbacks = {},
): Promise<AssistantMessage> {
	let response = await produce();
	if (!policy?.enabled) return response;
	let attempt = 0;
	for (;;) {
		if (response.stopReason === "aborted") {
			if (attempt > 0) callbacks.onRetryFinished?.(false, attempt);
			return response;
		}
		if (response.stopReason !== "error") {
			if (attempt > 0) callbacks.onRetryFinished?.(true, attempt);
			return response;
		}
		if (!isRetryableAssistantError(response) || attempt >= policy.maxRetries) {
			if (attempt > 0) callbacks.onRetryFinished?.(false, attempt);
			return response;
		}
		attempt++;
		const delay = retryDelayMs(policy, attempt);
		callbacks.onRetryScheduled?.(attempt, policy.maxRetries, delay, response.errorMessage || "Unknown error");
		try {
			await abortableSleep(delay, signal);
		} catch {
			callbacks.onRetryFinished?.(false, attempt);
			const aborted: AssistantMessage = { ...response, stopReason: "aborted" };
			delete aborted.errorMessage;
			return aborted;
		}
		callbacks.onRetryAttemptStart?.();
		response = await produce();
	}
}
