import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	clampToModel,
	nextThinkingLevel,
	parseCliThinkingLevel,
	resolveInitialThinkingLevel,
	thinkingLevelForModelSwitch,
} from "../../src/config/index.js";
import { chatModel } from "./model-fixtures.js";

const reasoning = chatModel("acme", "thinker", { reasoning: true });
const sparse = chatModel("acme", "sparse", {
	reasoning: true,
	thinkingLevelMap: { minimal: null, medium: null, xhigh: "xhigh" },
});
const plain = chatModel("acme", "plain");

describe("thinking levels", () => {
	it("clamps to the model, upward first, and uses off without a model", () => {
		expect(clampToModel(sparse, "medium")).toBe("high");
		expect(clampToModel(sparse, "max")).toBe("xhigh");
		expect(clampToModel(reasoning, "max")).toBe("high");
		expect(clampToModel(plain, "high")).toBe("off");
		expect(clampToModel(undefined, "high")).toBe("off");
	});

	it("warns about and ignores an invalid --thinking", () => {
		expect(parseCliThinkingLevel("high")).toEqual({ level: "high" });
		expect(parseCliThinkingLevel("turbo").level).toBeUndefined();
		expect(parseCliThinkingLevel("turbo").warning).toContain('Invalid thinking level "turbo"');
	});

	it("applies the creation precedence: explicit > session > per-model > default > medium", () => {
		const settings = SettingsManager.inMemory({
			defaultThinkingLevel: "low",
			modelThinkingLevels: { "acme/thinker": "high" },
		});
		const none = SettingsManager.inMemory();
		expect(
			resolveInitialThinkingLevel({
				explicit: "minimal",
				hasMessages: true,
				sessionLevel: "high",
				model: reasoning,
				settings,
			}),
		).toEqual({
			requested: "minimal",
			effective: "minimal",
			backfill: false,
		});
		expect(
			resolveInitialThinkingLevel({ hasMessages: true, sessionLevel: "medium", model: reasoning, settings })
				.effective,
		).toBe("medium");
		expect(resolveInitialThinkingLevel({ hasMessages: true, model: reasoning, settings })).toEqual({
			requested: "low",
			effective: "low",
			backfill: true,
		});
		expect(resolveInitialThinkingLevel({ hasMessages: false, model: reasoning, settings }).effective).toBe("high");
		expect(resolveInitialThinkingLevel({ hasMessages: false, model: sparse, settings }).effective).toBe("low");
		expect(resolveInitialThinkingLevel({ hasMessages: false, model: reasoning, settings: none }).effective).toBe(
			"medium",
		);
		expect(resolveInitialThinkingLevel({ hasMessages: false, model: sparse, settings: none })).toEqual({
			requested: "medium",
			effective: "high",
			backfill: false,
		});
		expect(resolveInitialThinkingLevel({ hasMessages: false, settings: none }).effective).toBe("off");
	});

	it("applies the switch precedence: explicit > per-model > default > current > medium", () => {
		const perModel = SettingsManager.inMemory({ modelThinkingLevels: { "acme/thinker": "minimal" } });
		const withDefault = SettingsManager.inMemory({ defaultThinkingLevel: "low" });
		const none = SettingsManager.inMemory();
		expect(
			thinkingLevelForModelSwitch({ model: reasoning, explicit: "high", current: "low", settings: perModel }),
		).toBe("high");
		expect(thinkingLevelForModelSwitch({ model: reasoning, current: "low", settings: perModel })).toBe("minimal");
		expect(thinkingLevelForModelSwitch({ model: reasoning, current: "high", settings: withDefault })).toBe("low");
		expect(thinkingLevelForModelSwitch({ model: reasoning, current: "high", settings: none })).toBe("high");
		expect(thinkingLevelForModelSwitch({ model: reasoning, settings: none })).toBe("medium");
		expect(thinkingLevelForModelSwitch({ model: plain, explicit: "high", settings: none })).toBe("off");
	});
});

describe("thinking-level cycling", () => {
	it("steps through the model's supported levels and wraps", () => {
		expect(nextThinkingLevel(sparse, "off")).toBe("low");
		expect(nextThinkingLevel(sparse, "high")).toBe("xhigh");
		expect(nextThinkingLevel(sparse, "xhigh")).toBe("off");
		expect(nextThinkingLevel(sparse, "medium")).toBe("xhigh");
		expect(nextThinkingLevel(plain, "off")).toBe("off");
	});
});
