import { describe, expect, it } from "vitest";
import { cliBuilt, piInstalled, runCli, runPi, sandbox, trimLines } from "./harness.js";

/**
 * One key per catalog provider that an API key configures, as each provider reads it (docs/providers.md):
 * with all of them set, `--list-models` lists every chat model of those providers.
 */
const KEYS: Record<string, string> = {
	ANTHROPIC_API_KEY: "k",
	OPENAI_API_KEY: "k",
	AZURE_OPENAI_API_KEY: "k",
	GEMINI_API_KEY: "k",
	GOOGLE_CLOUD_API_KEY: "k",
	AWS_BEARER_TOKEN_BEDROCK: "k",
	MISTRAL_API_KEY: "k",
	OPENROUTER_API_KEY: "k",
	AI_GATEWAY_API_KEY: "k",
	GROQ_API_KEY: "k",
	CEREBRAS_API_KEY: "k",
	XAI_API_KEY: "k",
	DEEPSEEK_API_KEY: "k",
	NVIDIA_API_KEY: "k",
	HF_TOKEN: "k",
	FIREWORKS_API_KEY: "k",
	TOGETHER_API_KEY: "k",
	BASETEN_API_KEY: "k",
	OPENCODE_API_KEY: "k",
	KIMI_API_KEY: "k",
	META_API_KEY: "k",
	MINIMAX_API_KEY: "k",
	MINIMAX_CN_API_KEY: "k",
	MOONSHOT_API_KEY: "k",
	ZAI_API_KEY: "k",
	ZAI_CODING_CN_API_KEY: "k",
	RADIUS_API_KEY: "k",
	TYPESAFE_API_KEY: "k",
	ANT_LING_API_KEY: "k",
	COPILOT_GITHUB_TOKEN: "k",
	CLOUDFLARE_API_KEY: "k",
	CLOUDFLARE_ACCOUNT_ID: "account",
	CLOUDFLARE_GATEWAY_ID: "gateway",
	QWEN_TOKEN_PLAN_TEAM_API_KEY: "k",
	QWEN_TOKEN_PLAN_TEAM_CN_API_KEY: "k",
	QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY: "k",
	QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY: "k",
	XIAOMI_API_KEY: "k",
	XIAOMI_TOKEN_PLAN_CN_API_KEY: "k",
	XIAOMI_TOKEN_PLAN_AMS_API_KEY: "k",
	XIAOMI_TOKEN_PLAN_SGP_API_KEY: "k",
};

/** Rows per provider of a `--list-models` table. */
function rowsPerProvider(table: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const line of table.split("\n").slice(1)) {
		const provider = line.split(/\s+/)[0];
		if (provider) counts.set(provider, (counts.get(provider) ?? 0) + 1);
	}
	return counts;
}

describe.skipIf(!cliBuilt)("--list-models over the shipped catalog (built CLI)", () => {
	it("lists the chat models of every provider whose key is set: over 1,600 models from 40 providers", async () => {
		const box = sandbox();
		const result = await runCli(box, ["--list-models"], { env: KEYS });
		expect(result.code).toBe(0);
		const counts = rowsPerProvider(result.stdout);
		expect(counts.size).toBeGreaterThanOrEqual(40);
		expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThan(1600);
		for (const provider of ["amazon-bedrock", "google-vertex", "mistral", "azure", "cloudflare-ai-gateway"])
			expect(counts.get(provider), provider).toBeGreaterThan(0);
		// A provider without a configured key lists nothing; the keyless ChatGPT backend needs a sign-in.
		expect(counts.has("openai-codex")).toBe(false);
		expect(counts.has("ollama")).toBe(false);
	});

	it.skipIf(!piInstalled)(
		"prints exactly pi 1.6's table for the same keys and search (reference from scripts/pi-reference.mjs)",
		async () => {
			const box = sandbox();
			for (const search of [undefined, "gemini", "claude opus"]) {
				const args = search === undefined ? ["--list-models"] : ["--list-models", search];
				const [tau, pi] = await Promise.all([runCli(box, args, { env: KEYS }), runPi(box, args, KEYS)]);
				expect(pi.code, pi.stderr).toBe(0);
				expect(tau.code, tau.stderr).toBe(0);
				expect(tau.stdout.split("\n").length, String(search)).toBeGreaterThan(10);
				expect(tau.stdout, String(search)).toBe(trimLines(pi.stdout));
			}
		},
	);
});
