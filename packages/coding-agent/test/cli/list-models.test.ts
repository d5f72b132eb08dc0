import type { Model } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { formatTokenCount, NO_MODELS_GUIDANCE, renderModelList } from "../../src/cli/list-models.js";

function model(provider: string, id: string, overrides: Partial<Model> = {}): Model {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider,
		baseUrl: "http://127.0.0.1:1/v1",
		input: ["text"],
		reasoning: false,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 1500,
		...overrides,
	} as Model;
}

describe("--list-models rendering (docs/design/cli.md#listing-models)", () => {
	it("formats token counts with K/M suffixes", () => {
		expect(formatTokenCount(200_000)).toBe("200K");
		expect(formatTokenCount(1_000_000)).toBe("1M");
		expect(formatTokenCount(1_500)).toBe("1.5K");
		expect(formatTokenCount(999)).toBe("999");
	});

	it("pads columns to the widest cell and sorts by provider then id", () => {
		const text = renderModelList([
			model("zeta", "b-model", { reasoning: true, input: ["text", "image"], contextWindow: 1_000_000 }),
			model("alpha", "sonnet-x"),
			model("alpha", "haiku"),
		]);
		expect(text).toBe(
			[
				"provider  model     context  max-out  thinking  images",
				"alpha     haiku     200K     1.5K     no        no",
				"alpha     sonnet-x  200K     1.5K     no        no",
				"zeta      b-model   1M       1.5K     yes       yes",
				"",
			].join("\n"),
		);
	});

	it("filters fuzzily on provider and id, and says when nothing matches", () => {
		const models = [model("anthropic", "claude-sonnet"), model("openai", "gpt-x")];
		expect(renderModelList(models, "son")).toContain("claude-sonnet");
		expect(renderModelList(models, "son")).not.toContain("gpt-x");
		expect(renderModelList(models, "nothing-like-it")).toBe('No models matching "nothing-like-it"\n');
	});

	it("prints the no-models guidance, which mentions --offline-demo", () => {
		expect(renderModelList([])).toBe(`${NO_MODELS_GUIDANCE}\n`);
		expect(NO_MODELS_GUIDANCE).toContain("--offline-demo");
	});
});
