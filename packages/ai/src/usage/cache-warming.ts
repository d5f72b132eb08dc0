import type { Api, Model } from "../types/model.js";
import type { SimpleStreamOptions } from "../types/options.js";
import { type Usage, zeroUsage } from "../types/usage.js";
import { resolveCacheRetention } from "../utils/cache-retention.js";
import { calculateCost } from "./cost.js";

/**
 * Prompt-cache warming numbers (docs/ai.md "Prompt-cache warming"): when a refresh of a cache entry is
 * due, whether a request may be replayed for it, and whether the refresh pays for itself. Hosts own the
 * scheduling.
 */

export type CacheWarmingAction = "warm" | "stop";
/** "streaming" while the run that sent the request is active; "idle" once it settled. */
export type CacheWarmingPhase = "streaming" | "idle";

/**
 * Whether keeping a prompt cache warm pays off now: the cost of a warming request against the cost of losing the cache.
 */
export interface CacheWarmingDecision {
	phase: CacheWarmingPhase;
	/** A cache read of the prompt plus one output token. */
	warmCost: number;
	/** What the next real request costs extra when the entry is lost. */
	missCost: number;
	continuationProbability: number;
	/** `continuationProbability * missCost - warmCost`. */
	expectedSavings: number;
	/** False when the prompt size or the model's prices are unknown. */
	economicsAvailable: boolean;
	action: CacheWarmingAction;
}

/** Warming while streaming stops this long after the real request that started it. */
export const CACHE_WARMING_MAX_AGE_MS = 60 * 60_000;
/** Idle warming stops sooner: the chance of a continuation fades with time. */
export const CACHE_WARMING_MAX_IDLE_AGE_MS = 30 * 60_000;
/** The least expected saving, in USD, that justifies a refresh. */
export const CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS = 0.05;
/** The chance that an idle agent gets a real request before the entry expires. */
export const CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY = 0.15;

const MINIMUM_MARGIN_MS = 10_000;

/** When to refresh an entry living `ttlMs`: at 90% of it, keeping at least ten seconds in hand. */
export function getCacheWarmingDelayMs(ttlMs: number): number | undefined {
	if (ttlMs <= MINIMUM_MARGIN_MS) return undefined;
	return Math.max(1, Math.floor(Math.min(ttlMs * 0.9, ttlMs - MINIMUM_MARGIN_MS)));
}

/** The lifetime of the entry a request writes, from the model's `promptCache` for the request's retention. */
export function getPromptCacheTtlMs(model: Model<Api>, options: SimpleStreamOptions | undefined): number | undefined {
	const retention = resolveCacheRetention(options ?? {});
	if (retention === "none") return undefined;
	const seconds = model.promptCache?.[retention];
	return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * A one-token replay keeps the cache entry only when the thinking budget does not follow `maxTokens`:
 * Anthropic's budget-based thinking derives it from `max_tokens` and keys the cache on it.
 */
export function isCacheWarmingReplayable(model: Model<Api>, options: SimpleStreamOptions | undefined): boolean {
	if (!options?.reasoning || model.api !== "anthropic-messages") return true;
	return (model.compat as { forceAdaptiveThinking?: boolean } | undefined)?.forceAdaptiveThinking === true;
}

/** A refresh repeats the request with one output token, no retries and no continuation of provider state. */
export function getCacheWarmingRequestOptions<T extends SimpleStreamOptions>(options: T, signal: AbortSignal): T {
	return { ...options, maxTokens: 1, disableContinuation: true, maxRetries: 0, signal };
}

function price(model: Model<Api>, tokens: Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">>) {
	return calculateCost(model, { ...zeroUsage(), ...tokens }).total;
}

/** Whether refreshing the entry of a `promptTokens`-token request is worth it in `phase`. */
export function evaluateCacheWarming(
	model: Model<Api>,
	promptTokens: number,
	phase: CacheWarmingPhase,
): CacheWarmingDecision {
	const hitCost = price(model, { cacheRead: promptTokens });
	const lostCost = price(model, model.cost.cacheWrite > 0 ? { cacheWrite: promptTokens } : { input: promptTokens });
	const warmCost = price(model, { cacheRead: promptTokens, output: 1 });
	const missCost = Math.max(0, lostCost - hitCost);
	const continuationProbability = phase === "idle" ? CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY : 1;
	const expectedSavings = continuationProbability * missCost - warmCost;
	return {
		phase,
		warmCost,
		missCost,
		continuationProbability,
		expectedSavings,
		economicsAvailable: promptTokens > 0 && (hitCost > 0 || lostCost > 0),
		action: expectedSavings >= CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS ? "warm" : "stop",
	};
}
