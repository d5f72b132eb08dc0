import type { AgentTool } from "@tau/agent";
import type { SettingsManager } from "../../config/index.js";
import {
	type AnyToolDefinition,
	activatesOnRegistration,
	type ExtensionRunner,
	exposureOf,
	extensionToolToAgentTool,
	isCallable,
	isDeclarable,
	type NestedToolCallExecutor,
	nextActiveTools,
	normalizePromptGuidelines,
	normalizePromptSnippet,
	type ToolInfo,
} from "../extensions/index.js";
import type { SourceInfo } from "../resources/index.js";
import { allToolNames, createToolDefinition, matchesToolPattern, type ToolName } from "../tools/index.js";

/** Read-only built-ins may be re-run after a crash instead of being reported as interrupted. */
const REPLAY_SAFE_BUILTINS = new Set(["read", "grep", "find", "ls"]);

interface RegistryEntry {
	definition: AnyToolDefinition;
	sourceInfo: SourceInfo;
	tool: AgentTool<any>;
}

export interface ToolRegistryOptions {
	cwd: string;
	settingsManager: SettingsManager;
	customTools?: readonly AnyToolDefinition[];
	allowedToolNames?: readonly string[];
	excludedToolNames?: readonly string[];
	initialActiveToolNames: readonly string[];
}

function builtinSource(name: string): SourceInfo {
	return { path: `builtin:${name}`, source: "builtin", scope: "temporary", origin: "top-level" } as SourceInfo;
}

/**
 * The session's tool registry: built-ins for the cwd, extension tools (first wins per name) and SDK
 * custom tools (override), filtered by the allow/deny lists, plus the active (declared) subset.
 */
export class ToolRegistry {
	private entries = new Map<string, RegistryEntry>();
	private active: string[] = [];
	private readonly seen = new Set<string>();
	/** Restored names not registered yet (an MCP tool registers once its server connects). */
	private pending: string[] = [];
	/** The last restored loadout: deactivating one of its tools gives up the names still pending. */
	private restored: ReadonlySet<string> = new Set();

	constructor(
		private readonly options: ToolRegistryOptions,
		private readonly runner: () => ExtensionRunner | undefined,
		private readonly nested: () => NestedToolCallExecutor | undefined,
	) {}

	/** Rebuilds the registry; `explicitActive` resets the active set (construction, reload). */
	refresh(explicitActive?: readonly string[]): void {
		const { options } = this;
		const next = new Map<string, RegistryEntry>();
		const add = (definition: AnyToolDefinition, sourceInfo: SourceInfo, override: boolean) => {
			if (!this.isAllowed(definition.name)) return;
			if (next.has(definition.name) && !override) return;
			next.set(definition.name, { definition, sourceInfo, tool: this.wrap(definition) });
		};
		for (const name of allToolNames) {
			add(this.builtinDefinition(name), builtinSource(name), false);
		}
		const runner = this.runner();
		const extensionTools = runner?.getTools() ?? [];
		for (const registered of extensionTools) add(registered.definition, registered.sourceInfo, true);
		for (const definition of options.customTools ?? []) {
			add(definition, { path: `<sdk:${definition.name}>`, source: "sdk" } as unknown as SourceInfo, true);
		}
		this.entries = next;

		const base = explicitActive ?? this.active;
		const wanted = [...base];
		for (const [name, entry] of next) {
			const declarable = isDeclarable(exposureOf(entry.definition));
			const fresh = !this.seen.has(name);
			const builtin = allToolNames.has(name as ToolName) && entry.sourceInfo.source === "builtin";
			if (options.allowedToolNames) {
				if (declarable && options.allowedToolNames.some((pattern) => matchesToolPattern(name, pattern))) {
					wanted.push(name);
				}
			} else if (fresh && !builtin && activatesOnRegistration(entry.definition)) {
				wanted.push(name);
			}
		}
		for (const name of next.keys()) this.seen.add(name);
		wanted.push(...this.pending.filter((name) => next.has(name)));
		this.pending = this.pending.filter((name) => !next.has(name));
		this.active = nextActiveTools([], [...new Set(wanted)], (name) => this.exposure(name));
	}

	private builtinDefinition(name: ToolName): AnyToolDefinition {
		const settings = this.options.settingsManager;
		const shellPath = settings.getShellPath();
		const commandPrefix = settings.getShellCommandPrefix();
		return createToolDefinition(name, this.options.cwd, {
			read: { autoResizeImages: settings.getImageAutoResize() },
			bash: { ...(shellPath ? { shellPath } : {}), ...(commandPrefix ? { commandPrefix } : {}) },
		}) as unknown as AnyToolDefinition;
	}

	private isAllowed(name: string): boolean {
		const { allowedToolNames, excludedToolNames } = this.options;
		if (excludedToolNames?.some((pattern) => matchesToolPattern(name, pattern))) return false;
		if (allowedToolNames) {
			const mcp = name.startsWith("mcp__");
			const filtersMcp =
				allowedToolNames.length === 0 || allowedToolNames.some((entry) => entry.startsWith("mcp__"));
			if (mcp && !filtersMcp) return true;
			return allowedToolNames.some((pattern) => matchesToolPattern(name, pattern));
		}
		return true;
	}

	private wrap(definition: AnyToolDefinition): AgentTool<any> {
		const tool = extensionToolToAgentTool(definition, (toolCallId, signal) => {
			const runner = this.runner();
			if (!runner) throw new Error("Tool context requires the session's extension runner");
			return runner.createToolContext(toolCallId, signal, this.nested());
		});
		const declared = (definition as { replay?: "safe" | "never" }).replay;
		tool.replay = declared ?? (REPLAY_SAFE_BUILTINS.has(definition.name) ? "safe" : "never");
		return tool;
	}

	exposure(name: string) {
		const entry = this.entries.get(name);
		return entry ? exposureOf(entry.definition) : undefined;
	}

	getDefinition(name: string): AnyToolDefinition | undefined {
		return this.entries.get(name)?.definition;
	}

	getTool(name: string): AgentTool<any> | undefined {
		return this.entries.get(name)?.tool;
	}

	getActiveToolNames(): string[] {
		return [...this.active];
	}

	/** Executable tools declared to the model, in active order. */
	getActiveTools(): AgentTool<any>[] {
		return this.active.flatMap((name) => {
			const tool = this.entries.get(name)?.tool;
			return tool ? [tool] : [];
		});
	}

	getCallableToolNames(): string[] {
		return [...this.entries.values()]
			.filter((entry) => isCallable(exposureOf(entry.definition), this.active.includes(entry.definition.name)))
			.map((entry) => entry.definition.name);
	}

	getAllTools(): ToolInfo[] {
		return [...this.entries.values()].map((entry) => {
			const info: ToolInfo = {
				name: entry.definition.name,
				description: entry.definition.description,
				parameters: entry.definition.parameters,
				exposure: exposureOf(entry.definition),
				sourceInfo: entry.sourceInfo,
			};
			const guidelines = normalizePromptGuidelines(entry.definition.promptGuidelines);
			if (guidelines.length > 0) info.promptGuidelines = guidelines;
			if (entry.definition.namespace) info.namespace = entry.definition.namespace;
			if (entry.definition.annotations) info.annotations = entry.definition.annotations;
			if (entry.definition.reachesTools) info.reachesTools = entry.definition.reachesTools;
			return info;
		});
	}

	/**
	 * Unknown and hidden names are ignored; kept tools keep their order. `codemode` and `deferred`
	 * tools are declared once explicitly activated (that is how `tool_search` loads them).
	 */
	setActive(names: readonly string[]): void {
		const previous = this.active;
		this.active = nextActiveTools(this.active, names, (name) => this.exposure(name));
		if (previous.some((name) => this.restored.has(name) && !this.active.includes(name))) this.pending = [];
	}

	/**
	 * Replaces the active set with a loadout restored from a transcript. Names not registered yet stay
	 * pending and are activated by the `refresh` that registers them.
	 */
	restore(names: readonly string[]): void {
		this.active = nextActiveTools([], names, (name) => this.exposure(name));
		this.pending = names.filter((name) => !this.entries.has(name));
		this.restored = new Set(names);
	}

	isBuiltin(name: string): boolean {
		return this.entries.get(name)?.sourceInfo.path === `builtin:${name}`;
	}

	getRegisteredTools(): AgentTool<any>[] {
		return [...this.entries.values()].map((entry) => entry.tool);
	}

	/** The callable tools (`ctx.tools`): active direct tools plus every codemode / deferred tool. */
	getCallableTools(): AgentTool<any>[] {
		return this.getCallableToolNames().flatMap((name) => {
			const tool = this.entries.get(name)?.tool;
			return tool ? [tool] : [];
		});
	}

	/** Prompt snippets and guidelines of the active tools, for the system prompt's tool section. */
	promptMetadata(): { snippets: Record<string, string>; guidelines: Record<string, string[]> } {
		const snippets: Record<string, string> = {};
		const guidelines: Record<string, string[]> = {};
		for (const name of this.active) {
			const definition = this.entries.get(name)?.definition;
			if (!definition) continue;
			const snippet = normalizePromptSnippet(definition.promptSnippet);
			if (snippet) snippets[name] = snippet;
			const rules = normalizePromptGuidelines(definition.promptGuidelines);
			if (rules.length > 0) guidelines[name] = rules;
		}
		return { snippets, guidelines };
	}
}
