import type { Model, ModelThinkingLevel } from "@tau/ai";
import { isGlobPattern, modelPatternToRegExp } from "./glob.js";
import { findExactModelReferenceMatch, isThinkingLevel, resolveModelReference } from "./model-reference.js";

/** A model that model patterns selected, with the thinking level the pattern asked for. */
export interface ScopedModel {
	model: Model;
	thinkingLevel?: ModelThinkingLevel;
}

/**
 * A problem with a `--models` or `enabledModels` pattern: it matched nothing, it was ambiguous, or its thinking
 * level is invalid.
 */
export interface ModelScopeDiagnostic {
	type: "warning";
	code: "no-match" | "invalid-thinking-level" | "ambiguous";
	message: string;
	pattern: string;
}

export interface ModelScope {
	models: ScopedModel[];
	/** The diagnostics' messages, in order. */
	warnings: string[];
	diagnostics: ModelScopeDiagnostic[];
}

/** Splits `--models a, b,,c` into trimmed, non-empty patterns. */
export function parseModelPatterns(value: string): string[] {
	return value
		.split(",")
		.map((pattern) => pattern.trim())
		.filter((pattern) => pattern !== "");
}

/**
 * Resolves scope patterns (`--models` or `enabledModels`) against the available models: globs
 * match `provider/id` or bare `id`; other patterns resolve leniently and fuzzily, and an ambiguous
 * pattern adds every candidate with a warning.
 */
export function resolveModelScope(patterns: readonly string[], available: readonly Model[]): ModelScope {
	const scoped: ScopedModel[] = [];
	const diagnostics: ModelScopeDiagnostic[] = [];
	const warn = (code: ModelScopeDiagnostic["code"], pattern: string, message: string) =>
		diagnostics.push({ type: "warning", code, message, pattern });
	const add = (model: Model, thinkingLevel?: ModelThinkingLevel) => {
		const duplicate = scoped.some(
			(entry) =>
				entry.model.provider === model.provider && entry.model.id === model.id && entry.model.type === model.type,
		);
		if (!duplicate) scoped.push(thinkingLevel === undefined ? { model } : { model, thinkingLevel });
	};
	for (const pattern of patterns) {
		if (isGlobPattern(pattern)) {
			const colon = pattern.lastIndexOf(":");
			const suffix = colon > 0 ? pattern.slice(colon + 1) : "";
			const level = isThinkingLevel(suffix) ? suffix : undefined;
			const body = level ? pattern.slice(0, colon) : pattern;
			// Ids such as `model[1m]` contain glob characters but are exact references.
			const exact = findExactModelReferenceMatch(body, available);
			if (exact) {
				add(exact, level);
				continue;
			}
			const regex = modelPatternToRegExp(body);
			const matches = available.filter(
				(model) => regex.test(`${model.provider}/${model.id}`) || regex.test(model.id),
			);
			if (matches.length === 0) warn("no-match", pattern, `No models match pattern "${pattern}"`);
			for (const model of matches) add(model, level);
			continue;
		}
		const result = resolveModelReference(pattern, available, {
			thinkingSuffix: "lenient",
			fuzzy: true,
			usable: () => true,
		});
		if (result.kind !== "ambiguous" && result.warning) {
			warn(result.kind === "resolved" ? "invalid-thinking-level" : "no-match", pattern, result.warning);
		}
		if (result.kind === "resolved") add(result.model, result.thinkingLevel);
		else if (result.kind === "ambiguous") {
			const providers = [...new Set(result.candidates.map((model) => model.provider))].sort();
			warn(
				"ambiguous",
				pattern,
				`Pattern "${pattern}" matches several providers: ${providers.join(", ")}. Use provider/id to choose one.`,
			);
			for (const model of result.candidates) add(model);
		} else if (!result.warning) warn("no-match", pattern, `No models match pattern "${pattern}"`);
	}
	return { models: scoped, warnings: diagnostics.map((diagnostic) => diagnostic.message), diagnostics };
}

/**
 * The models `--models` or `enabledModels` patterns select, with a diagnostic for each pattern that did not
 * resolve cleanly.
 */
export interface ResolveModelScopeResult {
	scopedModels: ScopedModel[];
	diagnostics: ModelScopeDiagnostic[];
}

/** Scope patterns resolved against the models whose providers have credentials now. */
export async function resolveModelScopeWithDiagnostics(
	patterns: string[],
	modelRuntime: { getAvailable(providerId?: string, options?: { signal?: AbortSignal }): Promise<readonly Model[]> },
	options?: { signal?: AbortSignal },
): Promise<ResolveModelScopeResult> {
	const scope = resolveModelScope(patterns, await modelRuntime.getAvailable(undefined, options));
	return { scopedModels: scope.models, diagnostics: scope.diagnostics };
}

/**
 * After saving a default model while a scope is active: the model joins the in-memory scope and,
 * when `enabledModels` is non-empty, is appended as `provider/id` unless already listed
 * (case-insensitive). Returns the new `enabledModels`, or undefined when unchanged.
 */
export function addSavedModelToScope(
	scope: ScopedModel[],
	enabledModels: readonly string[] | undefined,
	model: Model,
): string[] | undefined {
	if (!scope.some((entry) => entry.model.provider === model.provider && entry.model.id === model.id)) {
		scope.push({ model });
	}
	if (!enabledModels || enabledModels.length === 0) return undefined;
	const reference = `${model.provider}/${model.id}`;
	if (enabledModels.some((pattern) => pattern.toLowerCase() === reference.toLowerCase())) return undefined;
	return [...enabledModels, reference];
}
