import type { Agent } from "@tau/agent";
import { getCurrentTools, type SystemMessage } from "@tau/ai";
import { applyToolModifiers, DEFAULT_TOOL_NAMES, type SettingsManager } from "../../config/index.js";
import type { ExtensionRunner } from "../extensions/index.js";
import type { SessionManager } from "../session/index.js";
import { allToolNames, type ToolName } from "../tools/index.js";
import { applyLoadoutHooks } from "./loadout-hooks.js";
import type { ToolRegistry } from "./tool-registry.js";

export interface ToolLoadoutHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly tools: ToolRegistry;
	/** The initial built-ins came from `defaultTools` (and a branch's recorded ones replace them). */
	readonly usesDefaultTools: boolean;
	/** The session's `+name` / `-name` modifiers of `defaultTools`. */
	readonly modifiers: readonly string[] | undefined;
	runner(): ExtensionRunner;
}

/**
 * The session's tool loadout (docs/design/session-runtime.md#tool-loadout): the active subset of the registry, restored from the branch at
 * start and after `/tree`, and applied to the agent through the tools' `prepareLoadout` hooks.
 */
export class SessionToolLoadout {
	private hidden: ReadonlySet<string> = new Set();
	/** `defaultTools` as last applied, so `/reload` activates only the names it newly adds. */
	private defaults: string[] = [];

	constructor(private readonly host: ToolLoadoutHost) {}

	/** Active tools whose declarations requests leave out (a `prepareLoadout` hook hid them). */
	get hiddenDeclarations(): ReadonlySet<string> {
		return this.hidden;
	}

	/** Construction: the initial selection (what the branch recorded follows as the session opens). */
	start(initialActive: readonly string[]): void {
		this.defaults = this.resolveDefaults();
		this.host.tools.refresh(initialActive);
		this.apply();
	}

	/** Takes effect on the next request: the loop declares the change with a system message. */
	setActive(names: readonly string[]): void {
		this.host.tools.setActive(names);
		this.apply();
	}

	/** Rebuilds the registry after extension registrations. */
	refresh(): void {
		this.host.tools.refresh();
		this.apply();
	}

	/** `/reload` re-read the settings: keeps `active` and activates the tools new to `defaultTools`. */
	reload(active: readonly string[]): void {
		const previous = new Set(this.defaults);
		this.defaults = this.resolveDefaults();
		const added = this.defaults.filter((name) => !previous.has(name));
		this.host.tools.refresh([...active, ...added]);
		this.apply();
	}

	/**
	 * A branch's recorded tools win over the defaults; without `defaultTools` the built-ins stay as
	 * started and only other recorded tools (e.g. loaded by `tool_search`) come back.
	 */
	restoreFromBranch(): void {
		const { host } = this;
		const loadout = restoredLoadout(host.sessionManager.buildSessionProjection().messages, host.tools, {
			modifiers: host.modifiers,
			builtinsFromTranscript: host.usesDefaultTools,
		});
		if (loadout) host.tools.restore(loadout);
		this.apply();
	}

	/** The active tools, after `prepareLoadout` hooks, become the agent's executable and declared set. */
	apply(): void {
		const { tools } = this.host;
		const applied = applyLoadoutHooks(
			{
				declared: tools.getActiveTools(),
				callable: tools.getCallableTools(),
				registered: tools.getRegisteredTools(),
				definition: (name) => tools.getDefinition(name),
			},
			(name, error) => this.host.runner().runtime.report(`<tool:${name}>`, "prepare_loadout", error),
		);
		this.hidden = applied.hidden;
		this.host.agent.state.tools = applied.tools;
	}

	/** `defaultTools` as this session applies it; empty when its tools came from an allowlist or `noTools`. */
	private resolveDefaults(): string[] {
		if (!this.host.usesDefaultTools) return [];
		return defaultToolNames(this.host.settingsManager.getDefaultTools(), this.host.modifiers);
	}
}

interface LoadoutRestoreOptions {
	/** The session's `+`/`-` modifiers of `defaultTools`, re-applied to the restored loadout. */
	modifiers?: readonly string[] | undefined;
	/**
	 * Whether the built-ins come from the transcript (the session started from `defaultTools`). Otherwise
	 * they stay as the session was started (an allowlist or no built-ins) and only other tools are restored.
	 */
	builtinsFromTranscript: boolean;
}

/**
 * The tool loadout a branch records: the tools its system messages declare, plus extension tools the
 * branch never mentions that activate on registration, with `defaultTools` modifiers re-applied.
 * Undefined when the branch has no system message yet (the current tools stay).
 */
function restoredLoadout(
	messages: readonly { role: string }[],
	registry: ToolRegistry,
	options: LoadoutRestoreOptions,
): string[] | undefined {
	const systems = messages.filter((message): message is SystemMessage => message.role === "system");
	if (systems.length === 0) return undefined;
	const mentioned = new Set<string>();
	for (const system of systems) {
		for (const tool of system.toolsAdded ?? []) mentioned.add(tool.name);
		for (const tool of system.toolsRemoved ?? []) mentioned.add(tool.name);
	}
	const recorded = getCurrentTools(systems).map((tool) => tool.name);
	const current = registry.getActiveToolNames();
	const fresh = current.filter((name) => !mentioned.has(name) && !registry.isBuiltin(name));
	const isBuiltinName = (name: string) => allToolNames.has(name as ToolName);
	const loadout = options.builtinsFromTranscript
		? [...recorded, ...fresh]
		: [...current.filter(isBuiltinName), ...recorded.filter((name) => !isBuiltinName(name)), ...fresh];
	const { modifiers } = options;
	return modifiers && modifiers.length > 0 ? applyToolModifiers(modifiers, loadout) : loadout;
}

/** The built-ins the `defaultTools` setting asks for, with the session's own `+`/`-` modifiers applied. */
function defaultToolNames(setting: readonly string[] | undefined, modifiers: readonly string[] | undefined) {
	const defaults = setting ? applyToolModifiers(setting) : [...DEFAULT_TOOL_NAMES];
	return modifiers ? applyToolModifiers(modifiers, defaults) : defaults;
}
