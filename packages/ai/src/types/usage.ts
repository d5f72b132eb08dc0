/** Token accounting of one request. A `0` may mean "not reported" rather than "certainly zero". */
export interface Usage {
	/** Uncached input tokens (excludes cacheRead and cacheWrite). */
	input: number;
	/** Output tokens, including reasoning tokens. */
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** Subset of cacheWrite written with a 1h TTL (Anthropic only). */
	cacheWrite1h?: number;
	/** Subset of output; undefined when the provider has no breakdown. */
	reasoning?: number;
	totalTokens: number;
	cost: UsageCost;
}

/** USD. Component costs are catalog estimates; `total` may be provider-billed. */
export interface UsageCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	total: number;
	/** True when `total` is the amount the provider billed (e.g. OpenRouter). */
	totalFromProvider?: boolean;
}

/** A fresh all-zero usage record. */
export function zeroUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}
