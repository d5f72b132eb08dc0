import type { Agent } from "@tau/agent";
import { type Api, clampThinkingLevel, getSupportedThinkingLevels, type Model, type ThinkingLevel } from "@tau/ai";
import {
	addSavedModelToScope,
	type ModelRuntime,
	nextThinkingLevel,
	type ScopedModel,
	type SettingsManager,
	thinkingLevelForModelSwitch,
	VIRTUAL_MODEL_API,
} from "../../config/index.js";
import type { ExtensionRunner } from "../extensions/index.js";
import { getBranchSelection, type SessionManager } from "../session/index.js";
import type { AgentSessionEvent } from "./events.js";
import type { SessionPersistence } from "./persistence.js";

export type SessionThinkingLevel = ThinkingLevel | "off";

export interface ModelCycleResult {
	model: Model<Api>;
	thinkingLevel: SessionThinkingLevel;
	isScoped: boolean;
}

export interface ModelSelectionHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly modelRuntime: ModelRuntime;
	readonly persistence: SessionPersistence;
	runner(): ExtensionRunner;
	emit(event: AgentSessionEvent): void;
	scopedModels(): readonly ScopedModel[];
	setScopedModels(models: ScopedModel[]): void;
	/** Virtual models have no credentials of their own; their routes are checked per request. */
	isVirtual(model: Model<Api>): boolean;
}

/** Names everything that gives tau a model, in any mode (RPC clients cannot run /login or /model). */
export const NO_MODEL_SELECTED =
	"No model selected. Set an API key in the environment (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to models.json in the agent directory or sign in with /login, then select a model with /model (RPC: set_model).";

const ALL_LEVELS: SessionThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** The session's model and thinking level: selection, cycling, clamping and their entries/events (docs/design/session-runtime.md#models-and-thinking). */
export class ModelSelection {
	constructor(private readonly host: ModelSelectionHost) {}

	/** Undefined when no model is selected (the agent's state then holds none). */
	get model(): Model<Api> | undefined {
		return this.host.agent.state.model as Model<Api> | undefined;
	}

	get thinkingLevel(): SessionThinkingLevel {
		return this.host.agent.state.thinkingLevel as SessionThinkingLevel;
	}

	/**
	 * At run start: tree navigation can leave the latest `model_change` / `thinking_level_change` on
	 * another branch, so the current selection is recorded again when the branch implies another one.
	 */
	recordSelectionOnBranch(): void {
		const { host } = this;
		const model = this.model;
		const branch = host.sessionManager.getBranch();
		const implied = getBranchSelection(branch, (provider, id) =>
			host.isVirtual({ provider, id, api: VIRTUAL_MODEL_API } as Model<Api>),
		);
		if (model && (implied?.provider !== model.provider || implied?.modelId !== model.id)) {
			host.persistence.appendAnnounced(() => host.sessionManager.appendModelChange(model.provider, model.id), {
				tauOnly: true,
			});
		}
		const level = branch.findLast((entry) => entry.type === "thinking_level_change");
		if (level?.type === "thinking_level_change" && level.thinkingLevel !== this.thinkingLevel) {
			const current = this.thinkingLevel;
			host.persistence.appendAnnounced(() => host.sessionManager.appendThinkingLevelChange(current), {
				tauOnly: true,
			});
		}
	}

	/** Prompt validation (docs/design/session-runtime.md#prompt-pipeline): a model must be selected and its provider must have auth. */
	async assertReady(): Promise<void> {
		const { modelRuntime } = this.host;
		const model = this.model;
		if (!model) throw new Error(NO_MODEL_SELECTED);
		if (this.host.isVirtual(model)) return;
		if (await modelRuntime.models.checkAuth(model.provider).catch(() => undefined)) return;
		if ((await modelRuntime.credentials.read(model.provider).catch(() => undefined))?.type === "oauth") {
			throw new Error(`Authentication failed for "${model.provider}". Run /login to sign in again.`);
		}
		throw new Error(
			`No API key found for ${model.provider}. Use /login or set the provider's API key environment variable.`,
		);
	}

	async setModel(
		model: Model<Api>,
		options: { persist?: boolean; thinkingLevel?: SessionThinkingLevel; source?: "set" | "cycle" } = {},
	): Promise<void> {
		const { host } = this;
		if (
			!host.isVirtual(model) &&
			!(await host.modelRuntime.models.checkAuth(model.provider).catch(() => undefined))
		) {
			throw new Error(`No API key for ${model.provider}/${model.id}`);
		}
		const previous = this.model;
		const changed = previous?.provider !== model.provider || previous?.id !== model.id;
		host.agent.state.model = model;
		host.persistence.appendAnnounced(() => host.sessionManager.appendModelChange(model.provider, model.id), {
			tauOnly: true,
		});
		if (options.persist) {
			host.settingsManager.setDefaultModelAndProvider(model.provider, model.id);
			this.keepSavedModelInScope(model);
		}
		const explicit = options.thinkingLevel ?? this.scopedLevel(model);
		this.setThinkingLevel(
			thinkingLevelForModelSwitch({
				model,
				...(explicit ? { explicit } : {}),
				current: this.thinkingLevel,
				settings: host.settingsManager,
			}),
		);
		if (changed) {
			void host
				.runner()
				.emit({ type: "model_select", model, previousModel: previous, source: options.source ?? "set" });
		}
	}

	/** Through the available scoped models, else all available models; undefined when nothing to switch to. */
	async cycleModel(direction: "forward" | "backward" = "forward"): Promise<ModelCycleResult | undefined> {
		const { host } = this;
		const available = (model: Model<Api>) => host.modelRuntime.hasConfiguredAuth(model.provider);
		const scoped = host.scopedModels().filter((entry) => available(entry.model as Model<Api>));
		const candidates =
			scoped.length > 0
				? scoped.map((entry) => entry.model as Model<Api>)
				: [...host.modelRuntime.getAvailableSnapshot()];
		if (candidates.length === 0) return undefined;
		const current = this.model;
		const index = candidates.findIndex((model) => model.provider === current?.provider && model.id === current?.id);
		if (index >= 0 && candidates.length === 1) return undefined;
		const next =
			index < 0
				? direction === "forward"
					? candidates[0]!
					: candidates.at(-1)!
				: candidates[(index + (direction === "forward" ? 1 : candidates.length - 1)) % candidates.length]!;
		await this.setModel(next, { source: "cycle" });
		return { model: next, thinkingLevel: this.thinkingLevel, isScoped: scoped.length > 0 };
	}

	setThinkingLevel(level: SessionThinkingLevel, options: { persist?: boolean } = {}): void {
		const { host } = this;
		const model = this.model;
		const effective: SessionThinkingLevel = model
			? (clampThinkingLevel(model, level) as SessionThinkingLevel)
			: "off";
		if (options.persist) host.settingsManager.setDefaultThinkingLevel(level);
		if (effective === this.thinkingLevel) return;
		host.agent.state.thinkingLevel = effective as ThinkingLevel;
		host.persistence.appendAnnounced(() => host.sessionManager.appendThinkingLevelChange(effective), {
			tauOnly: true,
		});
		host.emit({ type: "thinking_level_changed", level: effective });
		void host.runner().emit({ type: "thinking_level_select", level: effective });
	}

	/** The next supported level; undefined for models without reasoning. */
	cycleThinkingLevel(): SessionThinkingLevel | undefined {
		const model = this.model;
		if (!model?.reasoning) return undefined;
		const next = nextThinkingLevel(model, this.thinkingLevel as never) as SessionThinkingLevel;
		this.setThinkingLevel(next);
		return this.thinkingLevel;
	}

	getAvailableThinkingLevels(): SessionThinkingLevel[] {
		return this.model ? (getSupportedThinkingLevels(this.model) as SessionThinkingLevel[]) : [...ALL_LEVELS];
	}

	/** A default saved while scoped joins the scope, and `enabledModels` when that lists models (docs/design/session-runtime.md#models-and-thinking). */
	private keepSavedModelInScope(model: Model<Api>): void {
		const { host } = this;
		const current = host.scopedModels();
		if (current.length === 0 || this.scopedEntry(model)) return;
		const scope = [...current];
		const enabledModels = addSavedModelToScope(scope, host.settingsManager.getEnabledModels(), model);
		host.setScopedModels(scope);
		if (enabledModels) host.settingsManager.setEnabledModels(enabledModels);
	}

	private scopedEntry(model: Model<Api>): ScopedModel | undefined {
		return this.host
			.scopedModels()
			.find((scoped) => scoped.model.provider === model.provider && scoped.model.id === model.id);
	}

	private scopedLevel(model: Model<Api>): SessionThinkingLevel | undefined {
		return this.scopedEntry(model)?.thinkingLevel as SessionThinkingLevel | undefined;
	}
}
