import type { Api, Model } from "../../types/model.js";

/** The model's id and name in every spelling the family checks below look for. */
function nameVariants(model: Pick<Model<Api>, "id" | "name">): string[] {
	return [model.id, model.name].filter(Boolean).flatMap((value) => {
		const lower = value.toLowerCase();
		return [lower, lower.replace(/[\s_.:]+/g, "-")];
	});
}

function mentions(model: Pick<Model<Api>, "id" | "name">, fragments: readonly string[]): boolean {
	return nameVariants(model).some((value) => fragments.some((fragment) => value.includes(fragment)));
}

/** Claude on Bedrock (an inference profile ARN may only say so in the model's name). */
export function isClaude(model: Pick<Model<Api>, "id" | "name">): boolean {
	return nameVariants(model).some((value) => value.includes("claude"));
}

/** Claude models whose thinking is adaptive (an effort, not a token budget). */
export function hasAdaptiveThinking(model: Pick<Model<Api>, "id" | "name">): boolean {
	return mentions(model, [
		"opus-4-6",
		"opus-4-7",
		"opus-4-8",
		"opus-5",
		"sonnet-4-6",
		"sonnet-5",
		"haiku-5",
		"fable-5",
	]);
}

/** Claude models that take the `xhigh` effort as is. */
export function hasXhighEffort(model: Pick<Model<Api>, "id" | "name">): boolean {
	return mentions(model, ["opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5"]);
}

/** Claude models with prompt caching on Bedrock (cache points). */
export function hasPromptCaching(model: Pick<Model<Api>, "id" | "name">): boolean {
	if (!isClaude(model)) return false;
	return mentions(model, ["fable-5", "opus-5", "sonnet-5", "haiku-5", "-4-", "claude-3-7-sonnet", "claude-3-5-haiku"]);
}

export function isGptOss(model: Pick<Model<Api>, "id" | "name">): boolean {
	return mentions(model, ["gpt-oss"]);
}

export function isGpt(model: Pick<Model<Api>, "id" | "name">): boolean {
	return mentions(model, ["gpt-"]);
}
