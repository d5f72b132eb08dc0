/** The thinking levels above `off`, from least to most reasoning. */
export const THINKING_LEVELS = ["minimal", "low", "medium", "high", "xhigh", "max"] as const;
/** How much a model should reason; each API maps it to its own setting. */
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** Every thinking level a model setting can take, including `off`. */
export const MODEL_THINKING_LEVELS = ["off", ...THINKING_LEVELS] as const;
/** A thinking level setting of a model, `off` included. */
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

/** Every prompt-cache retention setting, shortest first. */
export const CACHE_RETENTIONS = ["none", "short", "long"] as const;
/** How long a provider should keep the prompt cache: not at all, its default (short) or its long retention. */
export type CacheRetention = (typeof CACHE_RETENTIONS)[number];
