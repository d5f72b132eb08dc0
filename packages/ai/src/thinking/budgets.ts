import type { ThinkingBudgets, ThinkingLevel } from "../types/thinking.js";

/** Token budgets per level for token-budget providers; `xhigh`/`max` use the `high` budget. */
export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
};

/** Output tokens always left for the answer when thinking shares the output budget. */
export const MIN_ANSWER_TOKENS = 1024;

/** The thinking budget for `level`, with per-level overrides. */
export function thinkingBudgetFor(level: ThinkingLevel, budgets?: ThinkingBudgets): number {
	const key: keyof ThinkingBudgets = level === "xhigh" || level === "max" ? "high" : level;
	return budgets?.[key] ?? DEFAULT_THINKING_BUDGETS[key];
}

/** Grows the output limit by the thinking budget (capped by the model) and keeps room for an answer. */
export function adjustMaxTokensForThinking(
	baseMaxTokens: number | undefined,
	modelMaxTokens: number,
	level: ThinkingLevel,
	budgets?: ThinkingBudgets,
): { maxTokens: number; thinkingBudget: number } {
	let thinkingBudget = thinkingBudgetFor(level, budgets);
	const maxTokens =
		baseMaxTokens === undefined ? modelMaxTokens : Math.min(baseMaxTokens + thinkingBudget, modelMaxTokens);
	if (maxTokens <= thinkingBudget)
		thinkingBudget = Math.min(thinkingBudget, Math.max(0, maxTokens - MIN_ANSWER_TOKENS));
	return { maxTokens, thinkingBudget };
}
