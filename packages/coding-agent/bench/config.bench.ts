import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@tau/ai";
import { AuthStorage, SettingsManager } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";
import { resolveModelReference, resolveModelScope } from "../src/config/index.js";

function catalog(size: number): Model[] {
	return Array.from({ length: size }, (_, i) => ({
		id: `model-${i % 50}-${i % 3 === 0 ? "latest" : `2025${String(1000 + i).slice(-4)}`}`,
		name: `Model ${i}`,
		api: "openai-completions",
		provider: `provider-${i % 20}`,
		baseUrl: "https://example.invalid/v1",
		reasoning: i % 2 === 0,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
	}));
}

const bench: Bench = async (ctx) => {
	const root = mkdtempSync(join(tmpdir(), "tau-config-bench-"));
	try {
		const manager = SettingsManager.create(join(root, "project"), join(root, "agent"));
		let i = 0;
		await ctx.time(
			"settings: setter + flush (locked atomic write)",
			async () => {
				manager.setExtensionChangelogVersion(`key-${i++}`, "1");
				await manager.flush();
			},
			{ iterations: 200, warmup: 10 },
		);
		await ctx.time(
			"settings: create + load",
			() => SettingsManager.create(join(root, "project"), join(root, "agent")),
			{
				iterations: 200,
			},
		);

		// Credentials are resolved per request: every read checks auth.json's revision first.
		const authPath = join(root, "agent", "auth.json");
		writeFileSync(authPath, JSON.stringify({ openai: { type: "api_key", key: "sk-bench" } }), { mode: 0o600 });
		const auth = AuthStorage.create(authPath);
		await ctx.time("auth: read a stored key (auth.json unchanged)", () => auth.read("openai"), {
			iterations: 2000,
			warmup: 50,
		});
		const noFile = AuthStorage.create(join(root, "agent", "absent", "auth.json"));
		await ctx.time("auth: read with no auth.json (env-key users)", () => noFile.read("openai"), {
			iterations: 2000,
			warmup: 50,
		});

		const models = catalog(2000);
		const options = { thinkingSuffix: "strict" as const, fuzzy: true, usable: () => true };
		await ctx.time(
			"model resolver: fuzzy --model over 2,000 models",
			() => resolveModelReference("model-7", models, options),
			{
				iterations: 200,
			},
		);
		await ctx.time(
			"model resolver: --models scope with globs over 2,000 models",
			() => resolveModelScope(["provider-1/*", "model-3*:high", "provider-2/model-4-latest"], models),
			{ iterations: 100 },
		);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
};

export default bench;
