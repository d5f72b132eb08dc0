import * as tau from "@tau/ai";
import * as tauCompat from "@tau/ai/compat";
import { expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle, seededRandom } from "@tau/testkit";
import { describe, it } from "vitest";

const oracle = piOracle();

const PROVIDERS = [
	"anthropic",
	"openai",
	"openrouter",
	"google",
	"google-vertex",
	"amazon-bedrock",
	"groq",
	"moonshotai-cn",
	"qwen-token-plan",
	"qwen-token-plan-individual-cn",
	"github-copilot",
	"opencode-go",
	"zai",
	"unknown",
	"",
];
const VARIABLES = [
	"ANTHROPIC_AUTH_TOKEN",
	"ANTHROPIC_OAUTH_TOKEN",
	"ANTHROPIC_API_KEY",
	"OPENAI_API_KEY",
	"OPENROUTER_API_KEY",
	"GEMINI_API_KEY",
	"GOOGLE_CLOUD_API_KEY",
	"GOOGLE_CLOUD_PROJECT",
	"GOOGLE_CLOUD_LOCATION",
	"AWS_PROFILE",
	"AWS_ACCESS_KEY_ID",
	"AWS_SECRET_ACCESS_KEY",
	"AWS_BEARER_TOKEN_BEDROCK",
	"GROQ_API_KEY",
	"MOONSHOT_API_KEY",
	"QWEN_TOKEN_PLAN_API_KEY",
	"QWEN_TOKEN_PLAN_TEAM_API_KEY",
	"QWEN_TOKEN_PLAN_CN_API_KEY",
	"COPILOT_GITHUB_TOKEN",
	"OPENCODE_API_KEY",
	"ZAI_API_KEY",
];

function envCalls(): OracleCall[] {
	const random = seededRandom(17);
	const calls: OracleCall[] = [];
	for (let i = 0; i < 300; i++) {
		const env = Object.fromEntries(
			VARIABLES.filter(() => random.next() < 0.25).map((name) => [name, random.pick(["key", "", "other"])]),
		);
		const provider = random.pick(PROVIDERS);
		calls.push({ fn: "getEnvApiKey", args: [provider, env] });
		calls.push({ fn: "findEnvKeys", args: [provider, env] });
	}
	return calls;
}

const model = (overrides: Record<string, unknown> = {}) => ({
	id: "m",
	name: "M",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl: "https://api.anthropic.com",
	input: ["text"],
	reasoning: true,
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 200_000,
	maxTokens: 64_000,
	...overrides,
});

function helperCalls(): OracleCall[] {
	const random = seededRandom(29);
	const calls: OracleCall[] = [];
	const models = [
		model(),
		model({ cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }),
		model({ cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, api: "openai-responses" }),
		model({ promptCache: { short: 300, long: 3600 }, compat: { forceAdaptiveThinking: true } }),
		model({ reasoning: false, promptCache: { short: 300 } }),
		model({ thinkingLevelMap: { minimal: null, xhigh: "xhigh", max: null } }),
		model({
			cost: {
				input: 3,
				output: 15,
				cacheRead: 0.3,
				cacheWrite: 3.75,
				tiers: [{ inputTokensAbove: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 }],
			},
		}),
	];
	for (const m of models) {
		for (const tokens of [0, 1000, 50_000, 150_000, 400_000, 1_000_000]) {
			for (const phase of ["streaming", "idle"])
				calls.push({ fn: "evaluateCacheWarming", args: [m, tokens, phase] });
		}
		for (const options of [
			undefined,
			{},
			{ cacheRetention: "long" },
			{ cacheRetention: "none" },
			{ reasoning: "high" },
		]) {
			calls.push({ fn: "getPromptCacheTtlMs", args: [m, options] });
			calls.push({ fn: "isCacheWarmingReplayable", args: [m, options] });
		}
		calls.push({ fn: "getSupportedThinkingLevels", args: [m] });
		for (const level of ["off", "minimal", "low", "medium", "high", "xhigh", "max"]) {
			calls.push({ fn: "clampThinkingLevel", args: [m, level] });
		}
		const usage = {
			input: random.int(0, 300_000),
			output: random.int(0, 20_000),
			cacheRead: random.int(0, 100_000),
			cacheWrite: random.int(0, 50_000),
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		};
		calls.push({ fn: "calculateCost", args: [m, usage] });
		calls.push({ fn: "modelsAreEqual", args: [m, models[0]] });
		calls.push({ fn: "getModelType", args: [m] });
		calls.push({ fn: "hasApi", args: [m, "anthropic-messages"] });
	}
	for (const ttl of [0, 5000, 10_000, 10_001, 60_000, 300_000, 3_600_000]) {
		calls.push({ fn: "getCacheWarmingDelayMs", args: [ttl] });
	}
	for (const value of ["text", 42, null, { message: "object" }, [1, 2], true]) {
		calls.push({ fn: "formatThrownValue", args: [value] });
		calls.push({ fn: "extractDiagnosticError", args: [value] });
	}
	const identities = [
		undefined,
		{},
		{ userAgent: "short" },
		{ userAgent: { custom: "app/1" } },
		{ attribution: { name: "app", url: "https://app.dev", categories: ["cli-agent", "x"] } },
		{ attribution: { name: "app", url: "https://app.dev" }, version: "9" },
		{ attribution: null },
	];
	const targets = [
		{ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1" },
		{ provider: "custom", baseUrl: "https://proxy.example/openrouter.ai" },
		{ provider: "nvidia", baseUrl: "" },
		{ provider: "x", baseUrl: "https://integrate.api.nvidia.com/v1" },
		{ provider: "opencode", baseUrl: "" },
		{ provider: "x", baseUrl: "https://opencode.ai/zen/v1" },
		{ provider: "x", baseUrl: "not a url" },
		{ provider: "openai", baseUrl: "https://api.openai.com/v1" },
	];
	for (const target of targets) {
		for (const identity of identities) calls.push({ fn: "getAttributionHeaders", args: [target, identity] });
		for (const session of [undefined, "", "s-1"])
			calls.push({ fn: "getOpenCodeSessionHeaders", args: [target, session] });
	}
	calls.push({ fn: "mergeClientIdentity", args: identities });
	calls.push({ fn: "mergeClientIdentity", args: [identities[4], { attribution: null }, { userAgent: "short" }] });
	calls.push({ fn: "mergeClientIdentity", args: [] });
	calls.push({ fn: "formatUserAgent", args: [{ userAgent: { custom: "app/1" } }] });
	return calls;
}

describe.skipIf(!oracle.available)(oracleTitle(oracle, "pi-ai helpers against pi 1.6"), () => {
	it("environment key lookup answers as pi's compat entry does", async () => {
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai/compat", tauCompat, envCalls());
	});

	it("cache warming, cost, thinking levels, diagnostics and identity headers answer as pi does", async () => {
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai", tau, helperCalls());
	});
});
