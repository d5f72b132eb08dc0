import type { ThinkingLevel as GeminiThinkingLevel, ThinkingConfig } from "@google/genai";
import { clampThinkingLevel } from "../../thinking/levels.js";
import type { GoogleApiThinkingLevel, GoogleOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import type { ThinkingBudgets, ThinkingLevel } from "../../types/thinking.js";

type GoogleLevel = "minimal" | "low" | "medium" | "high";

/** Gemini 3 and later take a discrete thinking level; older models a token budget. */
export function usesThinkingLevel(model: Model<Api>): boolean {
	const id = model.id.toLowerCase();
	return (
		/gemini-3(?:\.\d+)?-(?:pro|flash)/.test(id) ||
		/gemini-(?:[4-9]|[1-9]\d)/.test(id) ||
		id === "gemini-flash-latest" ||
		id === "gemini-flash-lite-latest" ||
		/gemma-?4/.test(id)
	);
}

/** A tau level (or the model's mapping of it) as one of Google's four levels. */
export function googleLevel(model: Model<Api>, level: ThinkingLevel | "off"): GoogleLevel {
	const mapped = model.thinkingLevelMap?.[level];
	const resolved = typeof mapped === "string" ? mapped.toLowerCase() : level;
	if (resolved === "minimal" || resolved === "low" || resolved === "medium" || resolved === "high") return resolved;
	throw new Error(
		`Unsupported Google thinking level mapping for ${model.provider}/${model.id}: ${level} -> ${String(mapped)}`,
	);
}

export function apiThinkingLevel(level: GoogleLevel): GoogleApiThinkingLevel {
	return level.toUpperCase() as GoogleApiThinkingLevel;
}

/** Token budgets Gemini 2.5 models use per level; -1 lets the model decide (dynamic thinking). */
const BUDGETS: readonly (readonly [fragment: string, budgets: Record<GoogleLevel, number>])[] = [
	["2.5-pro", { minimal: 128, low: 2048, medium: 8192, high: 32768 }],
	["2.5-flash-lite", { minimal: 512, low: 2048, medium: 8192, high: 24576 }],
	["2.5-flash", { minimal: 128, low: 2048, medium: 8192, high: 24576 }],
];

export function googleThinkingBudget(model: Model<Api>, level: GoogleLevel, budgets?: ThinkingBudgets): number {
	const custom = budgets?.[level];
	if (custom !== undefined) return custom;
	return BUDGETS.find(([fragment]) => model.id.includes(fragment))?.[1][level] ?? -1;
}

/** Thinking off: budget 0, or for level models that cannot turn it off, their lowest level. */
function disabledThinking(model: Model<Api>): ThinkingConfig {
	if (!usesThinkingLevel(model)) return { thinkingBudget: 0 };
	const lowest = clampThinkingLevel(model, "off");
	if (lowest === "off") return { thinkingBudget: 0 };
	return { thinkingLevel: apiThinkingLevel(googleLevel(model, lowest)) as GeminiThinkingLevel };
}

/** The request's `thinkingConfig`, or undefined for a model without reasoning or no thinking option. */
export function thinkingConfig(model: Model<Api>, thinking: GoogleOptions["thinking"]): ThinkingConfig | undefined {
	if (!model.reasoning || !thinking) return undefined;
	if (!thinking.enabled) return disabledThinking(model);
	const config: ThinkingConfig = { includeThoughts: true };
	if (thinking.level !== undefined) config.thinkingLevel = thinking.level as GeminiThinkingLevel;
	else if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
	return config;
}
