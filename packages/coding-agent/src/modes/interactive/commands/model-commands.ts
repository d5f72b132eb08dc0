import type { Api, Model } from "@tau/ai";
import type { SelectItem } from "@tau/tui";
import { boundKey } from "../keybindings/app-keybindings.js";
import type { BuiltinCommand, CommandHost } from "./command-host.js";

function modelKey(model: Model<Api>): string {
	return `${model.provider}/${model.id}`;
}

function availableModels(host: CommandHost): Model<Api>[] {
	return host.session.modelRuntime.getAvailable() as Model<Api>[];
}

async function switchModel(host: CommandHost, model: Model<Api>, persist = false): Promise<void> {
	await host.session.setModel(model, { persist });
	host.notify("info", `Model: ${model.id}`);
	host.refreshFooter();
}

/** The model selector; `app.models.save` also stores the choice as the default model. */
export async function selectModel(host: CommandHost, filter = ""): Promise<void> {
	// models.json is a snapshot, not watched: opening the selector is when edits to it take effect.
	host.session.modelRuntime.reload();
	await host.session.modelRuntime.refreshAvailability();
	const models = availableModels(host);
	if (models.length === 0) {
		host.notify("warning", "No models available. Log in with /login or set an API key.");
		return;
	}
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

export const modelCommands: readonly BuiltinCommand[] = [modelCommand, thinkingCommand];
