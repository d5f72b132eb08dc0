export const THINKING_LEVELS = ["minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export const MODEL_THINKING_LEVELS = ["off", ...THINKING_LEVELS] as const;
export type ModelThinkingLevel = (typeof MODEL_THINKING_LEVELS)[number];

/** Provider value per level; `null` marks a level the model does not support. */
export type ThinkingLevelMap = Partial<Record<ModelThinkingLevel, string | null>>;

/** Token budgets for token-budget providers; `xhigh`/`max` use `high`. */
export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
}

export const CACHE_RETENTIONS = ["none", "short", "long"] as const;
export type CacheRetention = (typeof CACHE_RETENTIONS)[number];
