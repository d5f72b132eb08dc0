import type { Model, ModelThinkingLevel } from "@tau/ai";
import { DEFAULT_MODEL_PER_PROVIDER } from "./default-models.js";
import type { ScopedModel } from "./model-scope.js";

export interface InitialModelInput {
	/** The `--model` result. */
	cliModel?: { model: Model; thinkingLevel?: ModelThinkingLevel };
	/** Scoped models (`--models` / `enabledModels`), when a scope is active. */
	scope?: readonly ScopedModel[];
	/** Whether the session already has messages. */
	hasMessages: boolean;
	/** The session branch's model selection, for restore. */
	sessionModel?: { provider: string; id: string };
	defaultProvider?: string;
	defaultModel?: string;
	/** Looks one model up (a lookup reads only that provider's catalog). */
	find(provider: string, id: string): Model | undefined;
	/**
	 * Models in catalog order for the last fallback, the first one whose provider is usable; called only
	 * when every other choice failed (callers pass the available models, so no other catalog is read).
	 */
	models(): readonly Model[];
	/** Whether a provider has configured auth. */
	usable: (providerId: string) => boolean;
}

export interface InitialModelSelection {
	model?: Model;
	/** Explicit level from `--model x:level` or the scope; undefined leaves the precedence rules in charge. */
	thinkingLevel?: ModelThinkingLevel;
	source: "cli" | "scope" | "session" | "default" | "provider-default" | "first-available" | "none";
	/** `Could not restore model p/id[. Using p2/id2]`. */
	warning?: string;
}

/** Picks the model a session starts with, in the documented priority order. */
export function selectInitialModel(input: InitialModelInput): InitialModelSelection {
	if (input.cliModel) return { ...input.cliModel, source: "cli" };
	const find = (provider: string | undefined, id: string | undefined) =>
		provider && id ? input.find(provider, id) : undefined;
	if (!input.hasMessages && input.scope && input.scope.length > 0) {
		const saved = input.scope.find(
			(entry) => entry.model.provider === input.defaultProvider && entry.model.id === input.defaultModel,
		);
		const chosen = saved ?? input.scope[0]!;
		return { model: chosen.model, thinkingLevel: chosen.thinkingLevel, source: "scope" };
	}
	let restoreFailure: string | undefined;
	if (input.hasMessages && input.sessionModel) {
		const { provider, id } = input.sessionModel;
		const restored = find(provider, id);
		if (restored && input.usable(provider)) return { model: restored, source: "session" };
		restoreFailure = `Could not restore model ${provider}/${id}`;
	}
	const fallback = fallbackModel(input, find);
	if (!fallback) return { source: "none", warning: restoreFailure };
	const warning = restoreFailure
		? `${restoreFailure}. Using ${fallback.model.provider}/${fallback.model.id}`
		: undefined;
	return warning ? { ...fallback, warning } : fallback;
}

function fallbackModel(
	input: InitialModelInput,
	find: (provider: string | undefined, id: string | undefined) => Model | undefined,
): { model: Model; source: InitialModelSelection["source"] } | undefined {
	const saved = find(input.defaultProvider, input.defaultModel);
	if (saved && input.usable(saved.provider)) return { model: saved, source: "default" };
	for (const [provider, id] of DEFAULT_MODEL_PER_PROVIDER) {
		if (!input.usable(provider)) continue;
		const model = find(provider, id);
		if (model) return { model, source: "provider-default" };
	}
	const first = input.models().find((model) => input.usable(model.provider));
	return first ? { model: first, source: "first-available" } : undefined;
}
