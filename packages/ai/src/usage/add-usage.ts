import type { Usage } from "../types/usage.js";

/** Field-wise sum of two usage records (optional subsets stay absent unless either side has them). */
export function addUsage(total: Usage | undefined, usage: Usage): Usage {
	if (!total) return structuredClone(usage);
	const sum: Usage = {
		input: total.input + usage.input,
		output: total.output + usage.output,
		cacheRead: total.cacheRead + usage.cacheRead,
		cacheWrite: total.cacheWrite + usage.cacheWrite,
		totalTokens: total.totalTokens + usage.totalTokens,
		cost: {
			input: total.cost.input + usage.cost.input,
			output: total.cost.output + usage.cost.output,
			cacheRead: total.cost.cacheRead + usage.cost.cacheRead,
			cacheWrite: total.cost.cacheWrite + usage.cost.cacheWrite,
			total: total.cost.total + usage.cost.total,
		},
	};
	if (total.cacheWrite1h !== undefined || usage.cacheWrite1h !== undefined) {
		sum.cacheWrite1h = (total.cacheWrite1h ?? 0) + (usage.cacheWrite1h ?? 0);
	}
	if (total.reasoning !== undefined || usage.reasoning !== undefined) {
		sum.reasoning = (total.reasoning ?? 0) + (usage.reasoning ?? 0);
	}
	return sum;
}
