import type { Api, Model } from "../types/model.js";
import type { ModelThinkingLevel } from "../types/thinking.js";
import { clampThinkingLevel } from "./levels.js";

/** Model defaults, then per-level defaults, then the request's own parameters; undefined when all absent. */
export function resolveSamplingParams(
	model: Model<Api>,
	level: ModelThinkingLevel | undefined,
	request: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
	const byLevel = model.samplingParamsByThinkingLevel?.[clampThinkingLevel(model, level ?? "off")];
	if (!model.samplingParams && !byLevel && !request) return undefined;
	return { ...model.samplingParams, ...byLevel, ...request };
}
