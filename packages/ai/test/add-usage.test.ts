import { addUsage, type Usage, zeroUsage } from "@tau/ai";
import { describe, expect, it } from "vitest";

function usage(n: number, extra: Partial<Usage> = {}): Usage {
	return {
		input: n,
		output: 2 * n,
		cacheRead: 3 * n,
		cacheWrite: 4 * n,
		totalTokens: 10 * n,
		cost: { input: 10 * n, output: 20 * n, cacheRead: n, cacheWrite: 2 * n, total: 33 * n },
		...extra,
	};
}

describe("addUsage", () => {
	it("sums every token and cost field", () => {
		expect(addUsage(usage(1), usage(2))).toEqual(usage(3));
	});

	it("starts from a copy when there is no total yet", () => {
		const first = usage(1);
		const sum = addUsage(undefined, first);
		expect(sum).toEqual(first);
		sum.cost.total = 99;
		expect(first.cost.total).toBe(33);
	});

	it("keeps optional counters only when either side has them", () => {
		expect(addUsage(usage(1), usage(1))).not.toHaveProperty("reasoning");
		expect(addUsage(usage(1), usage(1, { reasoning: 5 })).reasoning).toBe(5);
		expect(addUsage(usage(1, { cacheWrite1h: 2 }), usage(1, { cacheWrite1h: 3 })).cacheWrite1h).toBe(5);
		expect(addUsage(zeroUsage(), usage(1))).toEqual(usage(1));
	});
});
