import type { Model } from "@tau/ai";
import {
	type Component,
	type Focusable,
	fuzzyFilter,
	Input,
	type KeybindingsManager,
	matchesKey,
	type SelectItem,
	SelectList,
	sanitizeTerminalText,
	truncateToWidth,
} from "@tau/tui";
import type { ScopedModel } from "../../../config/index.js";
import { boundKey } from "../keybindings/app-keybindings.js";
import { styleKeyHint } from "../keybindings/key-hints.js";
import type { UiTheme } from "../theme/ui-theme.js";
import { ModelScopeDraft, modelReference } from "./model-scope-draft.js";

export interface ScopedModelsSelectorOptions {
	/** The available models (configured providers). */
	models: readonly Model[];
	/** The session's current scope, in cycling order. */
	scope: readonly ScopedModel[];
	/** The session's model, marked in the list. */
	current?: Model | undefined;
	/** Every edit, applied to the session at once. */
	onChange(scope: ScopedModel[]): void;
	/** `app.models.save`: the scope as `enabledModels` patterns. */
	onSave(patterns: string[]): void;
	/** The selector is done (after a save or on cancel). */
	onClose(): void;
}

/** `Alt+Up` and `Alt+Down` → `Alt+Up/Down`; keys with different modifiers are shown in full. */
function keyPair(first: string, second: string): string {
	if (!first || !second) return first || second;
	const prefix = first.slice(0, first.lastIndexOf("+") + 1);
	return prefix !== "" && second.startsWith(prefix) ? `${first}/${second.slice(prefix.length)}` : `${first}/${second}`;
}

/**
 * `/scoped-models`: a fuzzy-filtered checklist of the available models. Space/Enter toggles,
 * `app.models.*` keys enable all, clear, toggle a provider, reorder and save; Escape closes.
 */
export class ScopedModelsSelector implements Component, Focusable {
	readonly capturesViewportInput = true;
	private readonly input = new Input({ prompt: "› " });
	private readonly list: SelectList;
	private readonly draft: ModelScopeDraft;
	private readonly byReference = new Map<string, Model>();
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
		private readonly options: ScopedModelsSelectorOptions,
	) {
		this.draft = new ModelScopeDraft(options.models, options.scope);
		for (const model of this.draft.rows()) this.byReference.set(modelReference(model), model);
		this.list = new SelectList([], 10, theme.selectList(), { minPrimaryWidth: 24, maxPrimaryWidth: 48 });
		const current = options.current ? modelReference(options.current) : undefined;
		this.refresh(current);
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	private selectedModel(): Model | undefined {
		const item = this.list.getSelectedItem();
		return item ? this.byReference.get(item.value) : undefined;
	}

	/** Rebuilds the rows after an edit or a filter change, keeping `keep` selected when it is still shown. */
	private refresh(keep = this.list.getSelectedItem()?.value): void {
		const query = this.input.getValue().trim();
		const rows = this.draft.rows();
		const shown = query === "" ? rows : fuzzyFilter(rows, query, (model) => `${model.id} ${modelReference(model)}`);
		const items = shown.map((model) => this.item(model));
		this.list.setItems(items);
		const index = items.findIndex((item) => item.value === keep);
		if (index >= 0) this.list.setSelectedIndex(index);
	}

	private item(model: Model): SelectItem {
		const reference = modelReference(model);
		const level = this.draft.thinkingLevel(model);
		const notes = [
			model.provider,
			...(level ? [`thinking ${level}`] : []),
			...(this.options.current && modelReference(this.options.current) === reference ? ["current"] : []),
		];
		// Model ids and providers can come from a provider's remote catalog.
		return {
			value: reference,
			label: sanitizeTerminalText(`${this.draft.isEnabled(model) ? "[x]" : "[ ]"} ${model.id}`),
			description: sanitizeTerminalText(notes.join(" · ")),
		};
	}

	/** Applies an edit to the draft, the rows (the selected model stays selected) and the session. */
	private edit(change: () => void): void {
		change();
		this.refresh();
		this.options.onChange(this.draft.scope);
	}

	private close(): void {
		if (this.done) return;
		this.done = true;
		this.options.onClose();
	}

	handleInput(data: string): void {
		const { keys } = this;
		const model = this.selectedModel();
		// Space toggles rather than filtering: model ids contain no spaces.
		if (matchesKey(data, "space") || keys.matches(data, "tui.select.confirm")) {
			if (model) this.edit(() => this.draft.toggle(model));
			return;
		}
		if (keys.matches(data, "app.models.save")) {
			this.options.onSave(this.draft.patterns());
			this.close();
			return;
		}
		if (keys.matches(data, "app.models.enableAll")) {
			this.edit(() => this.draft.enableAll());
			return;
		}
		if (keys.matches(data, "app.models.clearAll")) {
			this.edit(() => this.draft.clearAll());
			return;
		}
		if (keys.matches(data, "app.models.toggleProvider")) {
			if (model) this.edit(() => this.draft.toggleProvider(model.provider));
			return;
		}
		const delta = keys.matches(data, "app.models.reorderUp")
			? -1
			: keys.matches(data, "app.models.reorderDown")
				? 1
				: 0;
		if (delta !== 0) {
			if (model) this.edit(() => this.draft.move(model, delta));
			return;
		}
		if (keys.matches(data, "tui.select.cancel")) {
			this.close();
			return;
		}
		if (
			keys.matches(data, "tui.select.up") ||
			keys.matches(data, "tui.select.down") ||
			keys.matches(data, "tui.select.pageUp") ||
			keys.matches(data, "tui.select.pageDown")
		) {
			this.list.handleInput(data);
			return;
		}
		const before = this.input.getValue();
		this.input.handleInput(data);
		if (this.input.getValue() !== before) this.refresh();
	}

	invalidate(): void {
		this.input.invalidate();
		this.list.invalidate();
	}

	/** Whether cycling is scoped right now; an empty scope means every available model. */
	private status(): string {
		const count = this.draft.scope.length;
		if (count === 0) return "No scope: cycling uses all available models";
		return `${count} of ${this.draft.modelCount} models in the cycling scope (in this order)`;
	}

	/** One line of the current keys (two spaces apart, to fit 100 columns); an action the user unbound is left out. */
	private hint(): string {
		const key = (id: string) => boundKey(this.keys, id);
		const parts: [string, string][] = [
			["Space", "toggle"],
			[key("app.models.save"), "save"],
			[key("app.models.enableAll"), "all"],
			[key("app.models.clearAll"), "none"],
			[key("app.models.toggleProvider"), "provider"],
			[keyPair(key("app.models.reorderUp"), key("app.models.reorderDown")), "move"],
			[key("tui.select.cancel"), "close"],
		];
		return parts
			.filter(([bound]) => bound !== "")
			.map(([bound, action]) => styleKeyHint(this.theme, bound, action))
			.join("  ");
	}

	render(width: number): readonly string[] {
		const border = this.theme.fg("borderAccent", "─".repeat(width));
		const rows =
			this.list.getItems().length > 0
				? this.list.render(width)
				: [truncateToWidth(this.theme.fg("muted", "  No matching models"), width)];
		return [
			border,
			truncateToWidth(this.theme.bold("Scoped models"), width),
			truncateToWidth(this.theme.fg("muted", this.status()), width),
			...this.input.render(width),
			...rows,
			truncateToWidth(this.hint(), width),
			border,
		];
	}
}
