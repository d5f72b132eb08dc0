import type { Api, Model } from "../types/model.js";
import { MODEL_THINKING_LEVELS, type ModelThinkingLevel } from "../types/thinking.js";

/** The only levels that must be opted into through a non-null `thinkingLevelMap` entry. */
const OPT_IN_LEVELS: readonly ModelThinkingLevel[] = ["xhigh", "max"];

/** Levels a model accepts, in ascending order; `["off"]` for non-reasoning models. */
export function getSupportedThinkingLevels(
	model: Pick<Model<Api>, "reasoning" | "thinkingLevelMap">,
): ModelThinkingLevel[] {
	if (!model.reasoning) return ["off"];
	const map = model.thinkingLevelMap ?? {};
	return MODEL_THINKING_LEVELS.filter((level) => {
		const entry = map[level];
		if (entry === null) return false;
		return OPT_IN_LEVELS.includes(level) ? entry !== undefined : true;
	});
}

/**
 * The nearest supported level: the requested one if supported, else the first supported level above it,
 * else the nearest below it. Unknown level strings clamp to the first supported level.
 */
export function clampThinkingLevel(
	model: Pick<Model<Api>, "reasoning" | "thinkingLevelMap">,
	level: ModelThinkingLevel | string,
): ModelThinkingLevel {
	const supported = getSupportedThinkingLevels(model);
	const position = MODEL_THINKING_LEVELS.indexOf(level as ModelThinkingLevel);
	if (position < 0) return supported[0] ?? "off";
	if (supported.includes(level as ModelThinkingLevel)) return level as ModelThinkingLevel;
	for (let i = position + 1; i < MODEL_THINKING_LEVELS.length; i++) {
		const candidate = MODEL_THINKING_LEVELS[i] as ModelThinkingLevel;
		if (supported.includes(candidate)) return candidate;
	}
	for (let i = position - 1; i >= 0; i--) {
		const candidate = MODEL_THINKING_LEVELS[i] as ModelThinkingLevel;
		if (supported.includes(candidate)) return candidate;
	}
	return supported[0] ?? "off";
}
