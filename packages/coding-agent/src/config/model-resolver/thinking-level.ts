import { clampThinkingLevel, getSupportedThinkingLevels, type Model, type ModelThinkingLevel } from "@tau/ai";
import { isThinkingLevel, MODEL_THINKING_LEVEL_NAMES } from "./model-reference.js";

export const DEFAULT_THINKING_LEVEL: ModelThinkingLevel = "medium";

/** The thinking settings the precedence rules read. */
export interface ThinkingSettings {
	getModelThinkingLevel(provider: string, id: string): string | undefined;
	getDefaultThinkingLevel(): string | undefined;
}

/** Validates `--thinking`: an invalid value is a warning and is ignored. */
export function parseCliThinkingLevel(value: string | undefined): { level?: ModelThinkingLevel; warning?: string } {
	if (value === undefined) return {};
	if (isThinkingLevel(value)) return { level: value };
	return {
		warning: `Invalid thinking level "${value}". Valid levels: ${MODEL_THINKING_LEVEL_NAMES.join(", ")}. Ignoring --thinking.`,
	};
}

function validLevel(value: string | undefined): ModelThinkingLevel | undefined {
	return value !== undefined && isThinkingLevel(value) ? value : undefined;
}

/** Clamps to the model's supported levels; without a model thinking is `off`. */
export function clampToModel(model: Model | undefined, level: ModelThinkingLevel): ModelThinkingLevel {
	return model ? clampThinkingLevel(model, level) : "off";
}

export interface InitialThinkingInput {
	/** `--thinking` > `--model x:level` > a scoped model's level (already in that order). */
	explicit?: ModelThinkingLevel;
	hasMessages: boolean;
	/** The branch's latest `thinking_level_change`, for existing sessions. */
	sessionLevel?: ModelThinkingLevel;
	model?: Model;
	settings: ThinkingSettings;
}

export interface InitialThinking {
	/** The level before clamping. */
	requested: ModelThinkingLevel;
	/** The level applied to the model. */
	effective: ModelThinkingLevel;
	/** An existing session without a recorded level gets one appended. */
	backfill: boolean;
}

/** Thinking level at session creation: explicit, then session, then per-model, then default, then medium. */
export function resolveInitialThinkingLevel(input: InitialThinkingInput): InitialThinking {
	const { model, settings } = input;
	const defaultLevel = validLevel(settings.getDefaultThinkingLevel()) ?? DEFAULT_THINKING_LEVEL;
	let requested: ModelThinkingLevel;
	let backfill = false;
	if (input.explicit !== undefined) requested = input.explicit;
	else if (input.hasMessages) {
		requested = input.sessionLevel ?? defaultLevel;
		backfill = input.sessionLevel === undefined;
	} else {
		const perModel = model ? validLevel(settings.getModelThinkingLevel(model.provider, model.id)) : undefined;
		requested = perModel ?? defaultLevel;
	}
	return { requested, effective: clampToModel(model, requested), backfill };
}

/** Thinking level after a model switch: explicit ?? per-model ?? default ?? current ?? medium, clamped. */
export function thinkingLevelForModelSwitch(input: {
	model: Model;
	explicit?: ModelThinkingLevel;
	current?: ModelThinkingLevel;
	settings: ThinkingSettings;
}): ModelThinkingLevel {
	const { model, settings } = input;
	const requested =
		input.explicit ??
		validLevel(settings.getModelThinkingLevel(model.provider, model.id)) ??
		validLevel(settings.getDefaultThinkingLevel()) ??
		input.current ??
		DEFAULT_THINKING_LEVEL;
	return clampThinkingLevel(model, requested);
}

/** The next supported level of the model after `current`, wrapping around (thinking-level cycling). */
export function nextThinkingLevel(model: Model, current: ModelThinkingLevel): ModelThinkingLevel {
	const supported = getSupportedThinkingLevels(model);
	const index = supported.indexOf(clampThinkingLevel(model, current));
	return supported[(index + 1) % supported.length] ?? "off";
}
