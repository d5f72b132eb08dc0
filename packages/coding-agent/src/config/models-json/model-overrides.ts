import type { Model } from "@tau/ai";
import { isPlainObject } from "../fs/json-text.js";
import type { ModelOverride } from "./schema.js";

/** Compat objects whose nested objects merge one level deeper. */
const NESTED_COMPAT_KEYS = ["openRouterRouting", "vercelGatewayRouting", "chatTemplateKwargs", "chatTemplateArgs"];

function shallowMerge<T extends object>(base: T | undefined, override: object | undefined): T | undefined {
	if (!override) return base;
	return { ...(base ?? {}), ...override } as T;
}

/** Merges compat objects field by field, and the routing/template objects key by key. */
export function mergeCompat(base: object | undefined, override: object | undefined): object | undefined {
	if (!override) return base;
	if (!base) return { ...override };
	const merged: Record<string, unknown> = { ...base, ...override };
	for (const key of NESTED_COMPAT_KEYS) {
		const before = (base as Record<string, unknown>)[key];
		const after = (override as Record<string, unknown>)[key];
		if (isPlainObject(before) && isPlainObject(after)) merged[key] = { ...before, ...after };
	}
	return merged;
}

/**
 * Applies a `modelOverrides` entry: scalars replace; thinkingLevelMap, promptCache, samplingParams
 * and cost merge key by key (cost tiers replace); inputLimits and samplingParamsByThinkingLevel
 * merge one level deeper; compat merges with its nested objects.
 */
export function applyModelOverride(model: Model, override: ModelOverride): Model {
	const next: Model = { ...model };
	if (override.name !== undefined) next.name = override.name;
	if (override.reasoning !== undefined) next.reasoning = override.reasoning;
	if (override.input !== undefined) next.input = [...override.input];
	if (override.contextWindow !== undefined) next.contextWindow = override.contextWindow;
	if (override.maxTokens !== undefined) next.maxTokens = override.maxTokens;
	if (override.headers !== undefined) next.headers = { ...override.headers };
	next.thinkingLevelMap = shallowMerge(model.thinkingLevelMap, override.thinkingLevelMap);
	next.promptCache = shallowMerge(model.promptCache, override.promptCache);
	next.samplingParams = shallowMerge(model.samplingParams, override.samplingParams);
	if (override.cost) next.cost = { ...model.cost, ...override.cost };
	if (override.inputLimits) {
		const base = model.inputLimits ?? {};
		const images = override.inputLimits.images
			? {
					...base.images,
					...override.inputLimits.images,
					resize: shallowMerge(base.images?.resize, override.inputLimits.images.resize),
				}
			: base.images;
		next.inputLimits = { ...base, ...override.inputLimits, images };
	}
	if (override.samplingParamsByThinkingLevel) {
		const merged: Record<string, Record<string, unknown>> = { ...model.samplingParamsByThinkingLevel };
		for (const [level, params] of Object.entries(override.samplingParamsByThinkingLevel)) {
			if (params) merged[level] = { ...merged[level], ...params };
		}
		next.samplingParamsByThinkingLevel = merged;
	}
	if (override.compat) next.compat = mergeCompat(model.compat, override.compat) as Model["compat"];
	return dropUndefined(next);
}

function dropUndefined(model: Model): Model {
	for (const key of Object.keys(model) as (keyof Model)[]) if (model[key] === undefined) delete model[key];
	return model;
}
