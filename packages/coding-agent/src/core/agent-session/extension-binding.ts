import type { Model } from "@tau/ai";
import type { ProviderRegistration } from "../../config/index.js";
import type {
	ExtensionContextActions,
	ExtensionCoreActions,
	ExtensionProviderActions,
	ExtensionRunner,
	ModelRegistry,
} from "../extensions/index.js";
import type { AgentSession } from "./agent-session.js";

/** The registry facade extensions see (`ctx.modelRegistry`), over the session's model runtime. */
function modelRegistryOf(session: AgentSession): ModelRegistry {
	const runtime = session.modelRuntime;
	return {
		find: (provider, id) => runtime.find(provider, id),
		getAll: () => [...runtime.getAll()],
		getAvailable: () => [...runtime.getAvailable()],
		hasConfiguredAuth: (model: Model<any>) => runtime.isAvailable(model.provider),
	};
}

/** Installs the session behind every `pi.*` action and `ctx` getter of the runner (two-phase init). */
export function bindSessionToRunner(session: AgentSession, runner: ExtensionRunner): void {
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
		getCommands: () =>
			runner.getCommands().map((command) => {
				const info = {
					name: command.invocationName,
					source: "extension" as const,
					sourceInfo: command.sourceInfo,
				};
				return command.options.description ? { ...info, description: command.options.description } : info;
			}),
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
		getModelRegistry: () => modelRegistryOf(session),
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
				(error) => options?.onError?.(error instanceof Error ? error : new Error(String(error))),
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
		registerVirtualModel: () => {
			throw new Error("Virtual models are not supported by this session yet");
		},
		unregisterVirtualModel: () => {},
	};
	runner.bindCore(core, context, providers);
}
