import type { Model } from "@tau/ai";

/** A chat model for resolver tests. */
export function chatModel(provider: string, id: string, overrides: Partial<Model> = {}): Model {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider,
		baseUrl: `https://${provider}.example/v1`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 8_000,
		...overrides,
	};
}
