import type { Api, Model } from "@tau/ai";
import type { SelectItem } from "@tau/tui";
import { boundKey } from "../keybindings/app-keybindings.js";
import { ScopedModelsSelector } from "../selectors/scoped-models-selector.js";
import type { BuiltinCommand, CommandHost } from "./command-host.js";

function modelKey(model: Model<Api>): string {
	return `${model.provider}/${model.id}`;
}

function availableModels(host: CommandHost): Model<Api>[] {
	return host.session.modelRuntime.getAvailableSnapshot() as Model<Api>[];
}

async function switchModel(host: CommandHost, model: Model<Api>, persist = false): Promise<void> {
	await host.session.setModel(model, { persist });
	host.notify("info", `Model: ${model.id}`);
	host.refreshFooter();
}

/** The available models after re-reading models.json; undefined (with a warning) when there are none. */
async function listModels(host: CommandHost): Promise<Model<Api>[] | undefined> {
	// models.json is a snapshot, not watched: opening a selector is when edits to it take effect.
	host.session.modelRuntime.reload();
	const models = [...(await host.session.modelRuntime.getAvailable())];
	if (models.length > 0) return models;
	host.notify("warning", "No models available. Log in with /login or set an API key.");
	return undefined;
}

/** The model selector; `app.models.save` also stores the choice as the default model. */
export async function selectModel(host: CommandHost, filter = ""): Promise<void> {
	const models = await listModels(host);
	if (!models) return;
	const current = host.session.model;
	const items: SelectItem[] = models.map((model) => ({
		value: modelKey(model),
		label: model.id,
		description: model.provider + (current && modelKey(current) === modelKey(model) ? " ✓" : ""),
	}));
	let saveDefault = false;
	const chosen = await host.pick("Select model", items, {
		filter,
		...(current ? { selected: modelKey(current) } : {}),
		hint: `Enter to switch · ${boundKey(host.keys, "app.models.save")} to save as default · Escape to cancel`,
		actions: {
			"app.models.save": (item) => {
				saveDefault = item !== undefined;
				return item !== undefined;
			},
		},
	});
	if (!chosen) return;
	const model = models.find((candidate) => modelKey(candidate) === chosen.value);
	if (!model) return;
	await switchModel(host, model, saveDefault);
	if (saveDefault) host.notify("info", `Default model saved: ${model.provider}/${model.id}`);
}

const modelCommand: BuiltinCommand = {
	name: "model",
	description: "Select the model (or /model <provider/model>)",
	takesArgument: true,
	async run(host, argument) {
		const wanted = argument.trim();
		if (wanted === "") return selectModel(host);
		const models = availableModels(host);
		const exact = models.find((model) => modelKey(model) === wanted) ?? models.find((model) => model.id === wanted);
		if (exact) return switchModel(host, exact);
		return selectModel(host, wanted);
	},
};

function thinkingLevels(host: CommandHost): string[] {
	return host.session.supportsThinking() ? [...host.session.getAvailableThinkingLevels()] : ["off"];
}

async function setThinking(host: CommandHost, level: string, persist: boolean): Promise<void> {
	host.session.setThinkingLevel(level as never, { persist });
	host.notify("info", `Thinking level: ${level}`);
	host.refreshFooter();
}

const thinkingCommand: BuiltinCommand = {
	name: "thinking",
	description: "Set the thinking level (or /thinking <level>)",
	takesArgument: true,
	async run(host, argument) {
		const levels = thinkingLevels(host);
		const wanted = argument.trim().toLowerCase();
		if (wanted !== "") {
			const level = levels.find((candidate) => candidate.toLowerCase() === wanted);
			if (!level) {
				host.notify(
					"error",
					`Unknown thinking level "${argument.trim()}". Available levels: ${levels.join(", ")}.`,
				);
				return;
			}
			return setThinking(host, level, false);
		}
		let save = false;
		const chosen = await host.pick(
			"Thinking level",
			levels.map((level) => ({ value: level, label: level })),
			{
				selected: host.session.thinkingLevel,
				hint: `Enter to set · ${boundKey(host.keys, "app.thinking.save")} to save as default · Escape to cancel`,
				actions: {
					"app.thinking.save": (item) => {
						save = item !== undefined;
						return item !== undefined;
					},
				},
			},
		);
		if (!chosen) return;
		await setThinking(host, chosen.value, save);
		if (save) host.notify("info", `Default thinking level saved: ${chosen.value}`);
	},
};

/** Ctrl+S stores the scope as `enabledModels`; an empty scope removes the setting (no scoping). */
function saveScope(host: CommandHost, patterns: string[]): void {
	host.session.settingsManager.setEnabledModels(patterns.length > 0 ? patterns : undefined);
	host.notify(
		"info",
		patterns.length > 0
			? `Saved ${patterns.length} scoped model(s) to enabledModels`
			: "Cleared enabledModels: cycling uses all available models",
	);
}

const scopedModelsCommand: BuiltinCommand = {
	name: "scoped-models",
	description: "Enable, disable and reorder the models used for cycling",
	takesArgument: false,
	async run(host) {
		const models = await listModels(host);
		if (!models) return;
		await new Promise<void>((resolve) => {
			let close = () => {};
			const selector = new ScopedModelsSelector(host.theme, host.keys, {
				models,
				scope: host.session.scopedModels,
				current: host.session.model,
				onChange: (scope) => host.session.setScopedModels(scope),
				onSave: (patterns) => saveScope(host, patterns),
				onClose: () => {
					close();
					resolve();
				},
			});
			close = host.showInPlaceOfEditor(selector);
		});
	},
};

export const modelCommands: readonly BuiltinCommand[] = [modelCommand, thinkingCommand, scopedModelsCommand];
