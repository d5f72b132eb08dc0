import type { Api, Model, ModelCost } from "../types/model.js";
import type { Usage, UsageCost } from "../types/usage.js";

/** Rates for a request of `inputTokens`: the tier with the highest threshold below it, else the base. */
function ratesFor(cost: ModelCost, inputTokens: number): Omit<ModelCost, "tiers"> {
	let best: Omit<ModelCost, "tiers"> = cost;
	let threshold = Number.NEGATIVE_INFINITY;
	for (const tier of cost.tiers ?? []) {
		if (tier.inputTokensAbove < inputTokens && tier.inputTokensAbove > threshold) {
			best = tier;
			threshold = tier.inputTokensAbove;
		}
	}
	return best;
}

/** Catalog cost estimate in USD; mutates and returns `usage.cost`. 1h cache writes cost 2x base input. */
export function calculateCost(model: Pick<Model<Api>, "cost">, usage: Usage): UsageCost {
	const rates = ratesFor(model.cost, usage.input + usage.cacheRead + usage.cacheWrite);
	const longWrite = usage.cacheWrite1h ?? 0;
	const shortWrite = usage.cacheWrite - longWrite;
	const cost = usage.cost;
	// Price per token times tokens, in this order, so totals agree to the last bit with other pi-ai hosts.
	cost.input = (rates.input / 1e6) * usage.input;
	cost.output = (rates.output / 1e6) * usage.output;
	cost.cacheRead = (rates.cacheRead / 1e6) * usage.cacheRead;
	cost.cacheWrite = (rates.cacheWrite * shortWrite + rates.input * 2 * longWrite) / 1e6;
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	cost.totalFromProvider = false;
	return cost;
}

/** Tokens the request occupied in the context window. */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}
