import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Model } from "@tau/ai";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import {
	type BaseProvider,
	composeProvider,
	loadModelsJson,
	ModelsJsonSchema,
	mergeHeaders,
	parseModelsJson,
	stripJsonComments,
} from "../../src/config/index.js";
import { type JsonSchemaNode, matchesSchema } from "../../src/config/models-json/schema-check.js";
import { tempDirs, writeText } from "./helpers.js";

function model(overrides: Partial<Model> & { id: string }): Model {
	return {
		name: overrides.id,
		api: "openai-completions",
		provider: "openai",
		baseUrl: "https://api.openai.com/v1",
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 32_000,
		...overrides,
	};
}

const openai: BaseProvider = {
	id: "openai",
	name: "OpenAI",
	models: [
		model({ id: "gpt-a", headers: { "X-Base": "1" } }),
		model({ id: "gpt-r", api: "openai-responses", baseUrl: "https://r.example/v1" }),
	],
	hasApiKeyAuth: true,
	hasOAuth: false,
};
const empty = (id: string): BaseProvider => ({ id, models: [], hasApiKeyAuth: false, hasOAuth: false });

describe("models.json file", () => {
	it("accepts // comments and trailing commas, leaving strings untouched", () => {
		const text = `{
			// local server
			"providers": {
				"ollama": { "baseUrl": "http://localhost:11434/v1", "apiKey": "a//b", "models": [{ "id": "m,}" },], },
			},
		}`;
		// Blanked, not removed: parse errors keep pointing at the right line and column.
		expect(stripJsonComments('{"a": "x // y", "b": [1,2,],}')).toBe('{"a": "x // y", "b": [1,2 ] }');
		expect(stripJsonComments('{\n  // note\n  "a": 1\n}')).toBe('{\n         \n  "a": 1\n}');
		const { config, error } = parseModelsJson(text, "/a/models.json");
		expect(error).toBeUndefined();
		expect(config?.providers.ollama?.apiKey).toBe("a//b");
		expect(config?.providers.ollama?.models?.[0]?.id).toBe("m,}");
	});

	it("is silent when missing and disables the whole file on read, parse and schema errors", () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "models.json");
		expect(loadModelsJson(path)).toEqual({ config: undefined });
		writeText(path, "{ nope");
		expect(loadModelsJson(path).error).toMatch(new RegExp(`^Failed to parse models.json: .+\\n\\nFile: ${path}$`));
		writeText(path, '{"providers": {"a": {"models": [{"name": "x", "contextWindow": 0}], "authHeader": "yes"}}}');
		expect(loadModelsJson(path)).toEqual({
			config: undefined,
			error: [
				"Invalid models.json schema:",
				"  - providers.a.authHeader: must be boolean",
				"  - providers.a.models.0.id: is required",
				"  - providers.a.models.0.contextWindow: must be > 0",
				"",
				`File: ${path}`,
			].join("\n"),
		});
		writeText(path, "[]");
		expect(loadModelsJson(path).error).toBe(`Invalid models.json schema:\n  - root: must be object\n\nFile: ${path}`);
		writeText(path, '{"providers": {"a": {"compat": {"thinkingFormat": "bogus"}}}}');
		expect(loadModelsJson(path).error).toContain(
			'  - providers.a.compat.thinkingFormat: must be one of "openai", "openrouter",',
		);
		const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { authHeader: i }]));
		writeText(path, JSON.stringify({ providers: many }));
		expect(loadModelsJson(path).error).toContain("  - (further errors not shown)\n\nFile: ");
		const dir = join(agentDir, "dir-models.json");
		mkdirSync(dir);
		expect(loadModelsJson(dir).error).toMatch(new RegExp(`^Failed to load models.json: .+\\n\\nFile: ${dir}$`));
	});

	it("allows unknown properties and unknown compat flags", () => {
		const { error } = parseModelsJson(
			'{"$schema": "https://pi.dev/schemas/models.schema.json", "extra": 1, "providers": {"a": {"future": true, "compat": {"newFlag": 1}}}}',
			"/m.json",
		);
		expect(error).toBeUndefined();
	});
});

describe("models.json schema check without the schema engine", () => {
	const valid = {
		$schema: "https://pi.dev/schemas/models.schema.json",
		providers: {
			local: {
				name: "Local",
				baseUrl: "http://localhost:11434/v1",
				apiKey: "$KEY",
				api: "openai-completions",
				oauth: "radius",
				headers: { "X-A": "1" },
				authHeader: true,
				compat: {
					supportsStore: false,
					maxTokensField: "max_tokens",
					thinkingFormat: "qwen",
					openRouterRouting: { order: ["a"] },
					vllmPriority: 1,
					allowedFallbackModels: ["m"],
					futureFlag: { any: 1 },
				},
				models: [
					{
						id: "m",
						name: "M",
						reasoning: true,
						thinkingLevelMap: { high: "high", max: null },
						input: ["text", "image"],
						inputLimits: { maxRequestBytes: 10, images: { resize: { maxWidth: 5, jpegQuality: 80 } } },
						cost: {
							input: 1,
							output: 2,
							cacheRead: 0,
							cacheWrite: 0,
							tiers: [{ inputTokensAbove: 1, input: 1, output: 1, cacheRead: 1, cacheWrite: 1 }],
						},
						promptCache: { short: 300 },
						contextWindow: 1000,
						maxTokens: 100,
						samplingParams: { temperature: 0.2 },
						samplingParamsByThinkingLevel: { low: { top_p: 1 } },
					},
				],
				modelOverrides: { m: { cost: { input: 3 }, maxTokens: 5, headers: { "X-B": "2" } } },
			},
		},
	};
	const replacements: unknown[] = [null, true, 0, -1, 1.5, 101, "", "x", "radius", "max_tokens", [], ["text"], {}];

	/** Every variant that changes, removes or adds one value anywhere in `root`. */
	function* variants(root: unknown): Generator<unknown> {
		type Container = Record<string, unknown> | unknown[];
		function* at(node: unknown, replace: (next: unknown) => unknown): Generator<unknown> {
			for (const value of replacements) yield replace(value);
			if (typeof node !== "object" || node === null) return;
			const container = node as Container;
			for (const key of Object.keys(container)) {
				const child = (container as Record<string, unknown>)[key];
				const rebuilt = (next: unknown) => {
					const copy: Container = Array.isArray(container) ? [...container] : { ...container };
					(copy as Record<string, unknown>)[key] = next;
					return replace(copy);
				};
				yield* at(child, rebuilt);
				if (!Array.isArray(container)) {
					const { [key]: _removed, ...rest } = container;
					yield replace(rest);
				}
			}
			if (!Array.isArray(container)) yield replace({ ...container, unknownKey: 1, off: "x" });
		}
		yield* at(root, (next) => next);
	}

	it("accepts and rejects exactly what the schema engine does", () => {
		let rejected = 0;
		let count = 0;
		for (const candidate of variants(valid)) {
			const expected = Value.Check(ModelsJsonSchema, candidate);
			expect(matchesSchema(ModelsJsonSchema as JsonSchemaNode, candidate), JSON.stringify(candidate)).toBe(expected);
			if (!expected) rejected++;
			count++;
		}
		expect(Value.Check(ModelsJsonSchema, valid)).toBe(true);
		// The corpus exercises both outcomes broadly.
		expect(count).toBeGreaterThan(900);
		expect(rejected).toBeGreaterThan(count / 2);
		expect(count - rejected).toBeGreaterThan(100);
	});
});

describe("composeProvider", () => {
	it("routes built-in models through a provider baseUrl and keeps models and auth", () => {
		const composed = composeProvider(openai, { baseUrl: "https://proxy.internal/v1" });
		expect(composed.models.map((m) => [m.id, m.baseUrl])).toEqual([
			["gpt-a", "https://proxy.internal/v1"],
			["gpt-r", "https://proxy.internal/v1"],
		]);
		expect(composed.hasApiKeyAuth).toBe(true);
		expect(composed.name).toBe("OpenAI");
	});

	it("upserts models: same id replaced, new ids appended, with documented defaults", () => {
		const composed = composeProvider(openai, {
			name: "My OpenAI",
			models: [{ id: "gpt-a", contextWindow: 1000 }, { id: "new-r", api: "openai-responses" }, { id: "new-plain" }],
		});
		expect(composed.name).toBe("My OpenAI");
		expect(composed.models.map((m) => m.id)).toEqual(["gpt-a", "gpt-r", "new-r", "new-plain"]);
		expect(composed.models[0]).toEqual({
			id: "gpt-a",
			name: "gpt-a",
			api: "openai-completions",
			provider: "openai",
			baseUrl: "https://api.openai.com/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 1000,
			maxTokens: 16384,
		});
		// api/baseUrl inherit from the first chat model with the same api...
		expect(composed.models[2]).toMatchObject({ api: "openai-responses", baseUrl: "https://r.example/v1" });
		// ...else from the first openai-completions model.
		expect(composed.models[3]).toMatchObject({ api: "openai-completions", baseUrl: "https://api.openai.com/v1" });
		expect(composed.models[3]).toMatchObject({ contextWindow: 128000, maxTokens: 16384 });
	});

	it("defines a local OpenAI-compatible server (ollama, llama.cpp, vLLM, LM Studio)", () => {
		const composed = composeProvider(empty("ollama"), {
			baseUrl: "http://localhost:11434/v1",
			api: "openai-completions",
			apiKey: "ollama",
			compat: { supportsDeveloperRole: false },
			models: [{ id: "qwen2.5-coder:7b", contextWindow: 32768, compat: { maxTokensField: "max_tokens" } }],
		});
		expect(composed.models).toEqual([
			expect.objectContaining({
				id: "qwen2.5-coder:7b",
				provider: "ollama",
				api: "openai-completions",
				baseUrl: "http://localhost:11434/v1",
				contextWindow: 32768,
				compat: { supportsDeveloperRole: false, maxTokensField: "max_tokens" },
			}),
		]);
		expect(composed).toMatchObject({ apiKey: "ollama", hasApiKeyAuth: true, name: "ollama" });
	});

	it.each([
		[
			{ models: [{ id: "m", baseUrl: "http://x" }] },
			'Provider local, model m: no "api" specified. Set at provider or model level.',
		],
		[
			{ api: "openai-completions", models: [{ id: "m" }] },
			'Provider local: "baseUrl" is required when defining custom models.',
		],
		[{ oauth: "radius" as const }, 'Provider local: "baseUrl" is required when "oauth" is set.'],
		[{}, 'Provider local: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".'],
		[
			{ baseUrl: "http://x", api: "openai-completions", models: [{ id: "m" }] },
			"Provider local: no authentication method configured.",
		],
	])("rejects %j", (config, message) => {
		expect(() => composeProvider(empty("local"), config)).toThrow(message);
	});

	it("turns an oauth radius provider into a gateway provider", () => {
		const composed = composeProvider(empty("gw"), {
			oauth: "radius",
			baseUrl: "https://gw.example/v1",
			api: "openai-completions",
			models: [{ id: "m" }],
		});
		expect(composed).toMatchObject({ hasOAuth: true, radiusGatewayOrigin: "https://gw.example" });
	});

	it("applies modelOverrides with the documented merge rules and ignores unknown ids", () => {
		const base: BaseProvider = {
			...openai,
			models: [
				model({
					id: "gpt-a",
					cost: {
						input: 1,
						output: 2,
						cacheRead: 0.1,
						cacheWrite: 0,
						tiers: [{ inputTokensAbove: 1, input: 9, output: 9, cacheRead: 9, cacheWrite: 9 }],
					},
					thinkingLevelMap: { low: "low", high: "high" },
					inputLimits: {
						maxRequestBytes: 10,
						images: { maxPerMessage: 2, resize: { maxWidth: 100, maxHeight: 100 } },
					},
					samplingParamsByThinkingLevel: { high: { temperature: 1, top_p: 0.9 } },
					compat: { openRouterRouting: { order: ["a"], allow_fallbacks: true }, supportsStore: true } as never,
				}),
			],
		};
		const composed = composeProvider(base, {
			modelOverrides: {
				"gpt-a": {
					maxTokens: 64000,
					cost: { input: 1.1, tiers: [] },
					thinkingLevelMap: { high: null, xhigh: "xhigh" },
					inputLimits: { images: { resize: { maxWidth: 50 } } },
					samplingParamsByThinkingLevel: { high: { temperature: 0.5 }, low: { top_k: 3 } },
					compat: { openRouterRouting: { order: ["b"] } },
				},
				"no-such-model": { maxTokens: 1 },
			},
		});
		expect(composed.models[0]).toMatchObject({
			maxTokens: 64000,
			contextWindow: 200000,
			cost: { input: 1.1, output: 2, cacheRead: 0.1, cacheWrite: 0, tiers: [] },
			thinkingLevelMap: { low: "low", high: null, xhigh: "xhigh" },
			inputLimits: { maxRequestBytes: 10, images: { maxPerMessage: 2, resize: { maxWidth: 50, maxHeight: 100 } } },
			samplingParamsByThinkingLevel: { high: { temperature: 0.5, top_p: 0.9 }, low: { top_k: 3 } },
			compat: { openRouterRouting: { order: ["b"], allow_fallbacks: true }, supportsStore: true },
		});
		expect(composed.models).toHaveLength(1);
	});

	it("lets a model definition's headers beat its override's headers", () => {
		const composed = composeProvider(empty("p"), {
			baseUrl: "http://x",
			api: "openai-completions",
			apiKey: "k",
			headers: { "X-Provider": "1" },
			models: [{ id: "m", headers: { "x-shared": "definition" } }],
			modelOverrides: { m: { headers: { "X-Shared": "override", "X-Only-Override": "o" } } },
		});
		expect(composed.headers).toEqual({ "X-Provider": "1" });
		expect(composed.models[0]!.headers).toEqual({ "X-Only-Override": "o", "x-shared": "definition" });
	});

	it("merges headers case-insensitively", () => {
		expect(mergeHeaders({ Authorization: "a", "X-A": "1" }, undefined, { authorization: "b" })).toEqual({
			"X-A": "1",
			authorization: "b",
		});
	});
});
