import {
	adjustMaxTokensForThinking,
	clampMaxTokensToContext,
	clampThinkingLevel,
	getSupportedThinkingLevels,
	type Message,
	type Model,
	resolveSamplingParams,
} from "@tau/ai";
import { describe, expect, it } from "vitest";

function model(fields: Partial<Model> = {}): Model {
	return {
		id: "m",
		name: "m",
		api: "openai-completions",
		provider: "p",
		baseUrl: "",
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200000,
		maxTokens: 32000,
		...fields,
	};
}

describe("thinking levels", () => {
	it("lists supported levels", () => {
		expect(getSupportedThinkingLevels(model({ reasoning: false }))).toEqual(["off"]);
		expect(getSupportedThinkingLevels(model())).toEqual(["off", "minimal", "low", "medium", "high"]);
		expect(
			getSupportedThinkingLevels(model({ thinkingLevelMap: { xhigh: "xhigh", max: null, minimal: null } })),
		).toEqual(["off", "low", "medium", "high", "xhigh"]);
	});

	it("clamps upward first, then downward", () => {
		const a = model({ thinkingLevelMap: { off: null, xhigh: "xhigh" } });
		expect(clampThinkingLevel(a, "off")).toBe("minimal");
		expect(clampThinkingLevel(a, "max")).toBe("xhigh");
		const b = model({ thinkingLevelMap: { minimal: null, low: null, medium: null } });
		expect(clampThinkingLevel(b, "low")).toBe("high");
		expect(clampThinkingLevel(model({ reasoning: false }), "high")).toBe("off");
		expect(clampThinkingLevel(model(), "bogus")).toBe("off");
	});

	it("merges sampling parameters model < level < request", () => {
		const m = model({ samplingParams: { top_p: 0.9, a: 1 }, samplingParamsByThinkingLevel: { high: { a: 2 } } });
		expect(resolveSamplingParams(m, "high", { b: 3 })).toEqual({ top_p: 0.9, a: 2, b: 3 });
		expect(resolveSamplingParams(model(), "high", undefined)).toBeUndefined();
	});
});

describe("output budgets", () => {
	it("adds the thinking budget and keeps room for an answer", () => {
		expect(adjustMaxTokensForThinking(undefined, 32000, "medium")).toEqual({
			maxTokens: 32000,
			thinkingBudget: 8192,
		});
		expect(adjustMaxTokensForThinking(4000, 32000, "low")).toEqual({ maxTokens: 6048, thinkingBudget: 2048 });
		expect(adjustMaxTokensForThinking(4000, 32000, "max", { high: 100 })).toEqual({
			maxTokens: 4100,
			thinkingBudget: 100,
		});
		const tight = adjustMaxTokensForThinking(undefined, 8000, "high");
		expect(tight).toEqual({ maxTokens: 8000, thinkingBudget: 8000 - 1024 });
		expect(tight.maxTokens - tight.thinkingBudget).toBeGreaterThanOrEqual(1024);
	});

	it("clamps max tokens to the context window", () => {
		const transcript = { messages: [{ role: "user", content: "x".repeat(35_000), timestamp: 1 }] as Message[] };
		expect(clampMaxTokensToContext(model({ contextWindow: 0 }), transcript, 0)).toBe(1);
		expect(clampMaxTokensToContext(model({ contextWindow: 0 }), transcript, 500)).toBe(500);
		// 10k input tokens in a 32k window: margin 4096, so at most 32768 - 10000 - 4096 tokens remain.
		expect(clampMaxTokensToContext(model({ contextWindow: 32768 }), transcript, 30000)).toBe(32768 - 10000 - 4096);
		expect(clampMaxTokensToContext(model({ contextWindow: 1_000_000 }), transcript, 30000)).toBe(30000);
		expect(clampMaxTokensToContext(model({ contextWindow: 12000 }), transcript, 30000)).toBe(1);
	});
});
