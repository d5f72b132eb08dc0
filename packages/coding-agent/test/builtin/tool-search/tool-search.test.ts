import type { ExtensionAPI, ToolExposure } from "@tau/coding-agent";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createToolSearchExtension } from "../../../src/builtin/tool-search/index.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createHarness } from "../../agent-session/harness.js";
import { fakeApi } from "../fake-api.js";

function tool(name: string, description: string, exposure: ToolExposure): AnyToolDefinition {
	return {
		name,
		label: name,
		description,
		parameters: Type.Object({}),
		exposure,
		execute: async () => ({ content: [{ type: "text", text: `${name} ran` }], details: undefined }),
	};
}

const TOOLS = [
	tool("weather_forecast", "Get the weather forecast for a city", "deferred"),
	tool("weather_alerts", "Severe weather alerts", "codemode"),
	tool("direct_weather", "Weather for direct use", "direct"),
	tool("secret_weather", "Hidden weather", "hidden"),
	tool("stock_quote", "Stock market quotes", "deferred"),
];

function setup() {
	const fake = fakeApi(TOOLS);
	createToolSearchExtension()(fake.api);
	const definition = fake.definitions.get("tool_search")!;
	fake.api.setActiveTools([...fake.api.getActiveTools(), "tool_search"]);
	const run = async (args: Record<string, unknown>) => {
		const result = await definition.execute("call_1", args as never, undefined, undefined, fake.toolContext());
		return { ...result, text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("") };
	};
	return { fake, definition, run };
}

describe("builtin:tool-search", () => {
	it("registers a model-only, inactive, all-reaching tool with a static description", async () => {
		const h = await createHarness({ loader: { extensionFactories: [createToolSearchExtension()] } });
		const info = h.session.getAllTools().find((t) => t.name === "tool_search")!;
		expect(info.exposure).toBe("model-only");
		expect(h.session.getActiveToolNames()).not.toContain("tool_search");
		expect(info.description).toMatch(/BM25/);
		expect(info.description).toMatch(/MCP/);
		expect(setup().definition.reachesTools?.({ query: "x" })).toBe("all");
		const withMore = await createHarness({
			loader: {
				extensionFactories: [
					createToolSearchExtension(),
					(pi: ExtensionAPI) => {
						for (const t of TOOLS) pi.registerTool(t);
					},
				],
			},
		});
		expect(withMore.session.getAllTools().find((t) => t.name === "tool_search")!.description).toBe(info.description);
	});

	it("activates only inactive codemode/deferred matches, in one setActiveTools call", async () => {
		const { fake, run } = setup();
		const before = fake.api.getActiveTools();
		const result = await run({ query: "weather" });
		expect(result.isError).toBeFalsy();
		const loaded = (result.details as { loaded: string[] }).loaded;
		expect([...loaded].sort()).toEqual(["weather_alerts", "weather_forecast"]);
		expect(fake.activations.at(-1)).toEqual([...before, ...loaded]);
		expect(result.text).toMatch(/^Loaded 2 tool\(s\)/);
		expect(result.text).toMatch(/available from your next call/);
		expect(result.text).toMatch(/- weather_forecast: Get the weather forecast for a city/);
		expect(fake.active).toEqual(expect.arrayContaining(["weather_alerts", "weather_forecast"]));
	});

	it("never returns loaded tools again and reports no matches", async () => {
		const { run } = setup();
		await run({ query: "weather" });
		const again = await run({ query: "weather" });
		expect((again.details as { loaded: string[] }).loaded).toEqual([]);
		expect(again.text).toMatch(/No matching tools/);
		expect((await run({ query: "quantum chromodynamics" })).text).toMatch(/No matching tools/);
	});

	it("rejects an empty query and a non-positive or fractional limit", async () => {
		const { fake, run } = setup();
		for (const args of [{ query: "  " }, { query: "weather", limit: 0 }, { query: "weather", limit: 1.5 }]) {
			const result = await run(args);
			expect(result.isError).toBe(true);
			expect((result.details as { loaded: string[] }).loaded).toEqual([]);
		}
		expect(fake.active).not.toContain("weather_forecast");
	});

	it("honours limit", async () => {
		const { run } = setup();
		expect(((await run({ query: "weather forecast", limit: 1 })).details as { loaded: string[] }).loaded).toEqual([
			"weather_forecast",
		]);
	});
});
