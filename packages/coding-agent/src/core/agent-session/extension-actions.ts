import type { Api, Model } from "@tau/ai";
import {
	ModelRegistry,
	type ModelRuntime,
	type ProviderRegistration,
	type ScopedModel,
	type SettingsManager,
} from "../../config/index.js";
import { toError } from "../errors.js";
import type {
	ContextUsage,
	CustomMessageInput,
	ExtensionContextActions,
	ExtensionCoreActions,
	ExtensionProviderActions,
	ExtensionRunner,
	ReplacedSessionContext,
	SendMessageOptions,
	SessionStartEvent,
	SlashCommandInfo,
	ToolInfo,
} from "../extensions/index.js";
import type { BuildSystemPromptOptions, ResourceLoader } from "../resources/index.js";
import type { SessionManager } from "../session/index.js";
import type { SessionCompactionResult } from "./events.js";
import { createRunner } from "./extension-bridge.js";
import type { SessionThinkingLevel } from "./model-selection.js";
import type { ExtensionBindings } from "./types.js";

/**
 * What the extension actions use of a session. `AgentSession` is one; it is named by its shape here
 * because agent-session.ts imports this module.
 */
export interface ExtensionActionSession {
	readonly agent: { readonly signal: AbortSignal | undefined };
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly resourceLoader: ResourceLoader;
	readonly modelRuntime: ModelRuntime;
	readonly model: Model<Api> | undefined;
	readonly thinkingLevel: SessionThinkingLevel;
	readonly isIdle: boolean;
	readonly systemPrompt: string;
	readonly sessionName: string | undefined;
	readonly scopedModels: readonly ScopedModel[];
	readonly pendingMessageCount: number;
	sendUserMessage(
		content: Parameters<ExtensionCoreActions["sendUserMessage"]>[0],
		options: NonNullable<Parameters<ExtensionCoreActions["sendUserMessage"]>[1]>,
	): Promise<void>;
	sendCustomMessage(message: CustomMessageInput<unknown>, options: SendMessageOptions): Promise<void>;
	appendCustomEntry(customType: string, data?: unknown): void;
	setSessionName(name: string): void;
	getActiveToolNames(): string[];
	getAllTools(): ToolInfo[];
	setActiveToolsByName(names: string[]): void;
	refreshTools(): void;
	setModel(model: Model<Api>): Promise<void>;
	setThinkingLevel(level: SessionThinkingLevel): void;
	abort(): Promise<void>;
	requestShutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	compact(customInstructions?: string): Promise<SessionCompactionResult>;
	systemPromptOptions(): BuildSystemPromptOptions;
}

/** `pi.getCommands()`: extension commands, then prompt templates, then skills (when skill commands are on). */
function slashCommands(session: ExtensionActionSession, runner: ExtensionRunner): SlashCommandInfo[] {
	const commands: SlashCommandInfo[] = runner.getCommands().map((command) => ({
		name: command.invocationName,
		source: "extension",
		sourceInfo: command.sourceInfo,
		...(command.options.description ? { description: command.options.description } : {}),
	}));
	for (const prompt of session.resourceLoader.getPrompts().prompts) {
		commands.push({
			name: prompt.name,
			description: prompt.description,
			source: "prompt",
			sourceInfo: prompt.sourceInfo,
		});
	}
	if (session.settingsManager.getEnableSkillCommands()) {
		for (const skill of session.resourceLoader.getSkills().skills) {
			commands.push({
				name: `skill:${skill.name}`,
				description: skill.description,
				source: "skill",
				sourceInfo: skill.sourceInfo,
			});
		}
	}
	return commands;
}

/** Installs the session behind every `pi.*` action and `ctx` getter of the runner (two-phase init). */
export function bindSessionToRunner(session: ExtensionActionSession, runner: ExtensionRunner): void {
	const registry = new ModelRegistry(session.modelRuntime);
	const core: ExtensionCoreActions = {
		sendMessage: (message, options) => {
			void session
				.sendCustomMessage(message, options ?? {})
				.catch((error) => runner.runtime.report("<sendMessage>", "send_message", error));
		},
		sendUserMessage: (content, options) => {
			void session
				.sendUserMessage(content, options ?? {})
				.catch((error) => runner.runtime.report("<sendUserMessage>", "send_user_message", error));
		},
		appendEntry: (customType, data) => session.appendCustomEntry(customType, data),
		setSessionName: (name) => session.setSessionName(name),
		getSessionName: () => session.sessionName,
		setLabel: (entryId, label) => {
			session.sessionManager.appendLabelChange(entryId, label);
		},
		getActiveTools: () => session.getActiveToolNames(),
		getAllTools: () => session.getAllTools(),
		setActiveTools: (names) => session.setActiveToolsByName(names),
		refreshTools: () => session.refreshTools(),
		getCommands: () => slashCommands(session, runner),
		getSettings: () => session.settingsManager.getSettings(),
		setModel: async (model) => {
			try {
				await session.setModel(model);
				return true;
			} catch {
				return false;
			}
		},
		getThinkingLevel: () => session.thinkingLevel,
		setThinkingLevel: (level) => session.setThinkingLevel(level),
	};
	const context: ExtensionContextActions = {
		getSessionManager: () => session.sessionManager,
		getModelRegistry: () => registry,
		getModel: () => session.model,
		getScopedModels: () => session.scopedModels,
		getThinkingLevel: () => session.thinkingLevel,
		isIdle: () => session.isIdle,
		isProjectTrusted: () => session.settingsManager.isProjectTrusted(),
		getSignal: () => session.agent.signal,
		abort: () => {
			void session.abort();
		},
		hasPendingMessages: () => session.pendingMessageCount > 0,
		shutdown: () => session.requestShutdown(),
		getContextUsage: () => session.getContextUsage(),
		compact: (options) => {
			session.compact(options?.customInstructions).then(
				(result) => options?.onComplete?.(result),
				(error) => options?.onError?.(toError(error)),
			);
		},
		getSystemPrompt: () => session.systemPrompt,
		getSystemPromptOptions: () => session.systemPromptOptions(),
	};
	const providers: ExtensionProviderActions = {
		registerProvider: (name, config) =>
			session.modelRuntime.registerProvider(name, config as unknown as ProviderRegistration),
		registerNativeProvider: (provider) =>
			session.modelRuntime.registerProvider(provider.id, provider as unknown as ProviderRegistration),
		unregisterProvider: (name) => session.modelRuntime.unregisterProvider(name),
		registerVirtualModel: (definition) => session.modelRuntime.registerVirtualModel(definition),
		unregisterVirtualModel: (provider, id) => session.modelRuntime.unregisterVirtualModel(provider, id),
	};
	runner.bindCore(core, context, providers);
}

/** Applies the host's bindings (each only if provided) to a runner. */
export function applyBindings(runner: ExtensionRunner, bindings: ExtensionBindings): void {
	if (bindings.uiContext || bindings.mode) runner.setUIContext(bindings.uiContext, bindings.mode);
	if (bindings.commandContextActions) runner.bindCommandContext(bindings.commandContextActions);
	if (bindings.onError) runner.onError(bindings.onError);
}

/** `session_start`, the unhandled-MCP report, then `resources_discover` extending the loader's resources. */
export async function announceSessionStart(
	runner: ExtensionRunner,
	loader: ResourceLoader,
	cwd: string,
	start: SessionStartEvent,
): Promise<void> {
	await runner.emit({ ...start });
	runner.reportUnhandledMcpServers();
	if (!runner.hasHandlers("resources_discover")) return;
	const reason = start.reason === "reload" ? "reload" : "startup";
	const found = await runner.emitResourcesDiscover({ type: "resources_discover", cwd, reason });
	const extend = (items: { path: string; metadata?: unknown }[]) =>
		items.map((item) => ({
			path: item.path,
			metadata: (item.metadata ?? { source: "local", scope: "temporary", origin: "top-level" }) as never,
		}));
	loader.extendResources({
		skillPaths: extend(found.skillPaths),
		promptPaths: extend(found.promptPaths),
		themePaths: extend(found.themePaths),
	});
}

/** A command context whose sends are awaited (what `withSession` receives after a replacement). */
export function createReplacedSessionContext(
	session: ExtensionActionSession,
	runner: ExtensionRunner,
): ReplacedSessionContext {
	const context = runner.createCommandContext() as ReplacedSessionContext;
	Object.assign(context, {
		sendMessage: (message: Parameters<ReplacedSessionContext["sendMessage"]>[0], options?: SendMessageOptions) =>
			session.sendCustomMessage(message, options ?? {}),
		sendUserMessage: (
			content: Parameters<ReplacedSessionContext["sendUserMessage"]>[0],
			options?: Parameters<ReplacedSessionContext["sendUserMessage"]>[1],
		) => session.sendUserMessage(content, options ?? {}),
	});
	return context;
}

/**
 * `/reload` of extensions: `session_shutdown {reload}` (when bound), a fresh runner for the reloaded
 * resources with the same flag values, installed through `install`, then — only when extensions were
 * bound — the host's `beforeSessionStart`, the bindings and `session_start {reload}`.
 */
export async function reloadExtensions(options: {
	previous: ExtensionRunner;
	loader: ResourceLoader;
	cwd: string;
	bindings: ExtensionBindings | undefined;
	install: (runner: ExtensionRunner) => void;
	beforeSessionStart?: () => void | Promise<void>;
}): Promise<void> {
	const { previous, loader, cwd, bindings } = options;
	if (bindings && previous.hasHandlers("session_shutdown")) {
		await previous.emit({ type: "session_shutdown", reason: "reload" });
	}
	const flags = new Map(previous.runtime.flagValues);
	previous.invalidate();
	await loader.reload();
	const runner = createRunner(loader, cwd);
	for (const [name, value] of flags) runner.setFlagValue(name, value);
	options.install(runner);
	if (!bindings) return;
	await options.beforeSessionStart?.();
	applyBindings(runner, bindings);
	await announceSessionStart(runner, loader, cwd, { type: "session_start", reason: "reload" });
}
