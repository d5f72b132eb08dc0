import { resolveCliModel } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	addSavedModelToScope,
	findExactModelReferenceMatch,
	parseModelPatterns,
	resolveModelReference,
	resolveModelScope,
	selectInitialModel,
} from "../../src/config/index.js";
import { chatModel } from "./model-fixtures.js";

const models = [
	chatModel("anthropic", "claude-opus-5-5", { name: "Claude Opus 5.5", reasoning: true }),
	chatModel("anthropic", "claude-sonnet-4-5", { reasoning: true }),
	chatModel("anthropic", "claude-sonnet-4-5-20250929", { reasoning: true }),
	chatModel("openai", "gpt-6.2-sol"),
	chatModel("openai", "shared-model"),
	chatModel("openrouter", "shared-model"),
	chatModel("openrouter", "anthropic/claude-sonnet-4-5"),
	chatModel("cloudflare-workers-ai", "@cf/moonshotai/kimi-k2.7-code"),
	chatModel("my/gateway", "llama-3"),
	chatModel("local", "model[1m]"),
];
const ids = (list: { provider: string; id: string }[]) => list.map((m) => `${m.provider}/${m.id}`);
const usableOnly =
	(...providers: string[]) =>
	(provider: string) =>
		providers.includes(provider);
const strict = (usable: (p: string) => boolean = () => true) => ({
	thinkingSuffix: "strict" as const,
	fuzzy: true,
	usable,
});

describe("resolveModelReference", () => {
	it("resolves exact ids and provider/id, case-insensitively, including provider ids with slashes", () => {
		const resolve = (text: string) => {
			const result = resolveModelReference(text, models, strict());
			return result.kind === "resolved" ? `${result.model.provider}/${result.model.id}` : result.kind;
		};
		expect(resolve("GPT-6.2-SOL")).toBe("openai/gpt-6.2-sol");
		expect(resolve("Anthropic/Claude-Opus-5-5")).toBe("anthropic/claude-opus-5-5");
		expect(resolve("my/gateway/llama-3")).toBe("my/gateway/llama-3");
		expect(resolve("openrouter/anthropic/claude-sonnet-4-5")).toBe("openrouter/anthropic/claude-sonnet-4-5");
		expect(resolve("cloudflare-workers-ai/@cf/moonshotai/kimi-k2.7-code")).toBe(
			"cloudflare-workers-ai/@cf/moonshotai/kimi-k2.7-code",
		);
	});

	it("matches fuzzily on id and name, preferring aliases and then reverse lexicographic ids", () => {
		const resolve = (text: string, usable: (provider: string) => boolean = () => true) => {
			const result = resolveModelReference(text, models, strict(usable));
			return result.kind === "resolved" ? `${result.model.provider}/${result.model.id}` : result.kind;
		};
		expect(resolve("sonnet", usableOnly("anthropic"))).toBe("anthropic/claude-sonnet-4-5");
		expect(resolve("opus 5.5")).toBe("anthropic/claude-opus-5-5");
		expect(resolve("claude")).toBe("anthropic/claude-sonnet-4-5");
		// Matches spanning providers prefer authenticated providers.
		expect(resolve("sonnet-4-5", usableOnly("openrouter"))).toBe("openrouter/anthropic/claude-sonnet-4-5");
		expect(resolve("nothing-like-this")).toBe("not-found");
	});

	it("resolves an id on two providers by authentication, else reports ambiguity", () => {
		const kind = (usable: (p: string) => boolean) => {
			const result = resolveModelReference("shared-model", models, strict(usable));
			return result.kind === "resolved" ? result.model.provider : result.kind;
		};
		expect(kind(usableOnly("openrouter"))).toBe("openrouter");
		expect(kind(usableOnly("openai", "openrouter"))).toBe("ambiguous");
		expect(kind(usableOnly())).toBe("ambiguous");
	});

	it("parses a :thinking suffix; invalid suffixes are strict not-found or lenient warnings", () => {
		expect(resolveModelReference("claude-opus-5-5:high", models, strict())).toMatchObject({
			kind: "resolved",
			thinkingLevel: "high",
		});
		expect(resolveModelReference("claude-opus-5-5:turbo", models, strict()).kind).toBe("not-found");
		expect(
			resolveModelReference("claude-opus-5-5:turbo", models, { ...strict(), thinkingSuffix: "lenient" }),
		).toMatchObject({
			kind: "resolved",
			warning: 'Invalid thinking level "turbo" in pattern "claude-opus-5-5:turbo". Using default instead.',
		});
		expect(resolveModelReference("claude-opus-5-5:high", models, { ...strict(), thinkingSuffix: "none" }).kind).toBe(
			"not-found",
		);
	});

	it("returns a custom-model target under a known provider", () => {
		expect(resolveModelReference("openai/gpt-9-preview", models, strict())).toEqual({
			kind: "not-found",
			target: { provider: "openai", id: "gpt-9-preview" },
		});
	});

	it("finds exact references only when unambiguous", () => {
		expect(findExactModelReferenceMatch("openai/shared-model", models)?.provider).toBe("openai");
		expect(findExactModelReferenceMatch("shared-model", models)).toBeUndefined();
		expect(findExactModelReferenceMatch("sonnet", models)).toBeUndefined();
	});
});

describe("resolveCliModel", () => {
	const cli = (input: Partial<Parameters<typeof resolveCliModel>[0]>) =>
		resolveCliModel({ hasApiKey: false, models: () => models, usable: () => true, ...input });

	it("requires --model with --provider and validates the provider", () => {
		expect(() => cli({ provider: "openai" })).toThrow(
			"--provider requires --model (for example: --provider <name> --model <pattern>)",
		);
		expect(() => cli({ provider: "nope", model: "x" })).toThrow(
			'Unknown provider "nope". Use --list-models to see available providers/models.',
		);
		expect(() => resolveCliModel({ hasApiKey: false, models: () => [], usable: () => true, model: "x" })).toThrow(
			"No models available. Check your installation or add models to models.json.",
		);
		expect(cli({})).toBeUndefined();
		expect(() => cli({ hasApiKey: true })).toThrow(
			"--api-key requires a model to be specified via --model, --provider/--model, or --models",
		);
		expect(cli({ hasApiKey: true, hasScope: true })).toBeUndefined();
	});

	it("resolves provider/id of a configured provider from that provider's catalog alone, with the same answer", () => {
		const catalog = {
			providerIds: () => [...new Set(models.map((model) => model.provider))],
			find: (provider: string, id: string) => models.find((model) => model.provider === provider && model.id === id),
		};
		let wholeCatalogReads = 0;
		const lazy = () => {
			wholeCatalogReads++;
			return models;
		};
		const usable = usableOnly("anthropic", "openrouter");
		const direct = cli({ model: "anthropic/claude-sonnet-4-5:high", catalog, models: lazy, usable });
		expect(direct).toMatchObject({
			model: { provider: "anthropic", id: "claude-sonnet-4-5" },
			thinkingLevel: "high",
		});
		expect(wholeCatalogReads).toBe(0);
		// The full resolution agrees (openrouter also has an "anthropic/claude-sonnet-4-5" model).
		expect(cli({ model: "anthropic/claude-sonnet-4-5:high", usable })).toEqual(direct);
		// An unconfigured provider, a fuzzy pattern or --provider takes the full path.
		cli({ model: "anthropic/claude-sonnet-4-5", catalog, models: lazy, usable: usableOnly("openrouter") });
		cli({ model: "anthropic/sonnet", catalog, models: lazy, usable });
		cli({ model: "claude-sonnet-4-5", provider: "anthropic", catalog, models: lazy, usable });
		expect(wholeCatalogReads).toBe(3);
	});

	it("reports ambiguity with sorted candidates and the right hint", () => {
		expect(() => cli({ model: "shared-model", usable: usableOnly("openai", "openrouter") })).toThrow(
			'Model "shared-model" is ambiguous: openai/shared-model, openrouter/shared-model. More than one matching provider is authenticated. Use --provider or provider/model.',
		);
		expect(() => cli({ model: "shared-model", usable: usableOnly() })).toThrow(
			"No matching provider is authenticated.",
		);
		expect(() => cli({ model: "shared-model", hasApiKey: true, usable: usableOnly("openai") })).toThrow(
			"--api-key does not choose a provider.",
		);
		expect(cli({ model: "shared-model", provider: "OpenRouter" })?.model.provider).toBe("openrouter");
	});

	it("takes the thinking level from the suffix unless --thinking is given", () => {
		expect(cli({ model: "claude-opus-5-5:high" })?.thinkingLevel).toBe("high");
		expect(cli({ model: "claude-opus-5-5:high", thinking: "low" })?.thinkingLevel).toBeUndefined();
	});

	it("builds a custom model from the provider default with a warning", () => {
		const custom = cli({ model: "openai/gpt-9:high" });
		expect(custom?.model).toMatchObject({ id: "gpt-9", name: "gpt-9", provider: "openai", reasoning: true });
		expect(custom?.thinkingLevel).toBe("high");
		expect(custom?.warnings).toEqual(['Model "gpt-9" not found for provider "openai". Using custom model id.']);
		const keepSuffix = cli({ model: "openai/gpt-9:high", thinking: "off" });
		expect(keepSuffix?.model).toMatchObject({ id: "gpt-9:high", reasoning: false });
		expect(cli({ provider: "openai", model: "brand-new" })?.model.id).toBe("brand-new");
		expect(() => cli({ model: "totally-unknown" })).toThrow(
			'Model "totally-unknown" not found. Use --list-models to see available models.',
		);
	});
});

describe("model scope", () => {
	it("splits --models values", () => {
		expect(parseModelPatterns(" a, b,,c ,")).toEqual(["a", "b", "c"]);
	});

	it("matches globs on provider/id and bare id, keeps bracket ids exact, dedupes, warns", () => {
		const scope = resolveModelScope(
			["anthropic/*:high", "claude-sonnet-*", "model[1m]", "shared-model", "zzz*", "gpt-6.2-sol:fast"],
			models,
		);
		expect(
			scope.models.map(
				(entry) =>
					`${entry.model.provider}/${entry.model.id}${entry.thinkingLevel ? `:${entry.thinkingLevel}` : ""}`,
			),
		).toEqual([
			"anthropic/claude-opus-5-5:high",
			"anthropic/claude-sonnet-4-5:high",
			"anthropic/claude-sonnet-4-5-20250929:high",
			// The bare id `anthropic/claude-sonnet-4-5` matches the glob too.
			"openrouter/anthropic/claude-sonnet-4-5:high",
			"local/model[1m]",
			"openai/shared-model",
			"openrouter/shared-model",
			"openai/gpt-6.2-sol",
		]);
		expect(scope.warnings).toEqual([
			'Pattern "shared-model" matches several providers: openai, openrouter. Use provider/id to choose one.',
			'No models match pattern "zzz*"',
			'Invalid thinking level "fast" in pattern "gpt-6.2-sol:fast". Using default instead.',
		]);
		expect(resolveModelScope(["nothing"], models).warnings).toEqual(['No models match pattern "nothing"']);
	});

	it("adds a saved default to the scope and enabledModels once", () => {
		const scope = resolveModelScope(["openai/gpt-6.2-sol"], models).models;
		const model = models[0]!;
		expect(addSavedModelToScope(scope, ["openai/gpt-6.2-sol"], model)).toEqual([
			"openai/gpt-6.2-sol",
			"anthropic/claude-opus-5-5",
		]);
		expect(ids(scope.map((entry) => entry.model))).toEqual(["openai/gpt-6.2-sol", "anthropic/claude-opus-5-5"]);
		expect(addSavedModelToScope(scope, ["ANTHROPIC/Claude-Opus-5-5"], model)).toBeUndefined();
		expect(addSavedModelToScope(scope, [], model)).toBeUndefined();
		expect(scope).toHaveLength(2);
	});
});

describe("selectInitialModel", () => {
	const base = {
		find: (provider: string, id: string) => models.find((model) => model.provider === provider && model.id === id),
		models: () => models,
		hasMessages: false,
		usable: () => true,
	};

	it("prefers --model, then the saved default inside the scope, then the first scoped model", () => {
		const scope = resolveModelScope(["gpt-6.2-sol", "claude-opus-5-5:low"], models).models;
		expect(selectInitialModel({ ...base, cliModel: { model: models[3]! } }).source).toBe("cli");
		const saved = selectInitialModel({
			...base,
			scope,
			defaultProvider: "anthropic",
			defaultModel: "claude-opus-5-5",
		});
		expect(saved).toMatchObject({ source: "scope", thinkingLevel: "low", model: { id: "claude-opus-5-5" } });
		const first = selectInitialModel({ ...base, scope, defaultProvider: "openai", defaultModel: "shared-model" });
		expect(first).toMatchObject({ source: "scope", model: { id: "gpt-6.2-sol" } });
	});

	it("restores the session model, else warns and falls back", () => {
		const session = { ...base, hasMessages: true, sessionModel: { provider: "openai", id: "shared-model" } };
		expect(selectInitialModel(session)).toMatchObject({ source: "session", model: { provider: "openai" } });
		const noAuth = selectInitialModel({ ...session, usable: usableOnly("anthropic") });
		expect(noAuth).toMatchObject({
			source: "provider-default",
			warning: "Could not restore model openai/shared-model. Using anthropic/claude-opus-5-5",
		});
		expect(selectInitialModel({ ...session, usable: usableOnly() })).toEqual({
			source: "none",
			warning: "Could not restore model openai/shared-model",
		});
	});

	it("uses the saved default, then walks the default-model table in order, then the first available", () => {
		expect(selectInitialModel({ ...base, defaultProvider: "openai", defaultModel: "shared-model" }).model?.id).toBe(
			"shared-model",
		);
		// anthropic comes before openai in the table.
		expect(selectInitialModel({ ...base, usable: usableOnly("openai", "anthropic") }).model?.id).toBe(
			"claude-opus-5-5",
		);
		expect(selectInitialModel({ ...base, usable: usableOnly("local") })).toMatchObject({
			source: "first-available",
			model: { id: "model[1m]" },
		});
	});
});
