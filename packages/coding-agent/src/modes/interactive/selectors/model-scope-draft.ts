import type { Model, ModelThinkingLevel } from "@tau/ai";
import type { ScopedModel } from "../../../config/index.js";

/** `provider/id`, the identity of a model in the scope and in `enabledModels`. */
export function modelReference(model: Model): string {
	return `${model.provider}/${model.id}`;
}

/**
 * The scoped-model selector's working copy of the cycling scope: which models are enabled and in
 * which order. An empty scope means no scoping (cycling uses every available model).
 */
export class ModelScopeDraft {
	private enabled: ScopedModel[];
	/** Every model the selector lists: the scope's own (even if unavailable now), then the catalog's. */
	private readonly models: readonly Model[];
	/** Thinking suffixes seen in the scope, so disabling and re-enabling a model keeps its level. */
	private readonly levels = new Map<string, ModelThinkingLevel>();

	constructor(available: readonly Model[], scope: readonly ScopedModel[]) {
		this.enabled = scope.map((entry) => ({ ...entry }));
		for (const entry of scope) {
			if (entry.thinkingLevel) this.levels.set(modelReference(entry.model), entry.thinkingLevel);
		}
		const scoped = new Set(scope.map((entry) => modelReference(entry.model)));
		this.models = [...scope.map((entry) => entry.model), ...available.filter((m) => !scoped.has(modelReference(m)))];
	}

	/** A copy of the scope, in cycling order. */
	get scope(): ScopedModel[] {
		return this.enabled.map((entry) => ({ ...entry }));
	}

	get modelCount(): number {
		return this.models.length;
	}

	isEnabled(model: Model): boolean {
		return this.indexOf(model) >= 0;
	}

	thinkingLevel(model: Model): ModelThinkingLevel | undefined {
		return this.levels.get(modelReference(model));
	}

	/** Enabled models in scope order, then the others in catalog order. */
	rows(): Model[] {
		return [...this.enabled.map((entry) => entry.model), ...this.models.filter((model) => !this.isEnabled(model))];
	}

	toggle(model: Model): void {
		const index = this.indexOf(model);
		if (index >= 0) this.enabled.splice(index, 1);
		else this.enable(model);
	}

	/** Keeps the current order and appends the rest in catalog order. */
	enableAll(): void {
		for (const model of this.models) if (!this.isEnabled(model)) this.enable(model);
	}

	clearAll(): void {
		this.enabled = [];
	}

	/** Disables the provider's models when all of them are enabled, else enables the missing ones. */
	toggleProvider(provider: string): void {
		const members = this.models.filter((model) => model.provider === provider);
		if (members.every((model) => this.isEnabled(model))) {
			this.enabled = this.enabled.filter((entry) => entry.model.provider !== provider);
			return;
		}
		for (const model of members) if (!this.isEnabled(model)) this.enable(model);
	}

	/** Swaps an enabled model with its neighbour in the scope; at either end, or disabled, it stays. */
	move(model: Model, delta: -1 | 1): void {
		const index = this.indexOf(model);
		const target = index + delta;
		if (index < 0 || target < 0 || target >= this.enabled.length) return;
		const entry = this.enabled[index]!;
		this.enabled[index] = this.enabled[target]!;
		this.enabled[target] = entry;
	}

	/** The scope as `enabledModels` patterns: `provider/id`, with the `:thinking` suffix it had. */
	patterns(): string[] {
		return this.enabled.map(
			(entry) => modelReference(entry.model) + (entry.thinkingLevel ? `:${entry.thinkingLevel}` : ""),
		);
	}

	private enable(model: Model): void {
		const level = this.levels.get(modelReference(model));
		this.enabled.push(level ? { model, thinkingLevel: level } : { model });
	}

	private indexOf(model: Model): number {
		const reference = modelReference(model);
		return this.enabled.findIndex((entry) => modelReference(entry.model) === reference);
	}
}
