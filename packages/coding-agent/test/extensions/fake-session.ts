import type { ExtensionContextActions, ExtensionRunner } from "@tau/coding-agent";
import type { ExtensionCoreActions, ExtensionProviderActions } from "../../src/core/extensions/index.js";

/** Test double of the session side: records action calls and answers context reads with fixed values. */
export function bindFakeSession(
	runner: ExtensionRunner,
	overrides: { core?: Partial<ExtensionCoreActions>; providers?: Partial<ExtensionProviderActions> } = {},
): { calls: [string, ...unknown[]][] } {
	const calls: [string, ...unknown[]][] = [];
	const record =
		(name: string) =>
		(...args: unknown[]) => {
			calls.push([name, ...args]);
		};
	const core: ExtensionCoreActions = {
		sendMessage: record("sendMessage"),
		sendUserMessage: record("sendUserMessage"),
		appendEntry: record("appendEntry"),
		setSessionName: record("setSessionName"),
		getSessionName: () => "fake",
		setLabel: record("setLabel"),
		getActiveTools: () => ["read"],
		getAllTools: () => [],
		setActiveTools: record("setActiveTools"),
		refreshTools: record("refreshTools"),
		getCommands: () => [],
		getSettings: () => ({}) as never,
		setModel: async () => true,
		getThinkingLevel: () => "off",
		setThinkingLevel: record("setThinkingLevel"),
		...overrides.core,
	};
	const context: ExtensionContextActions = {
		getSessionManager: () => ({}) as never,
		getModelRegistry: () => ({}) as never,
		getModel: () => undefined,
		getScopedModels: () => [],
		getThinkingLevel: () => "off",
		isIdle: () => true,
		isProjectTrusted: () => true,
		getSignal: () => undefined,
		abort: record("abort"),
		hasPendingMessages: () => false,
		shutdown: record("shutdown"),
		getContextUsage: () => undefined,
		compact: record("compact"),
		getSystemPrompt: () => "system prompt",
		getSystemPromptOptions: () => ({ cwd: "/" }),
	};
	const providers: ExtensionProviderActions = {
		registerProvider: record("registerProvider"),
		registerNativeProvider: record("registerNativeProvider"),
		unregisterProvider: record("unregisterProvider"),
		registerVirtualModel: record("registerVirtualModel"),
		unregisterVirtualModel: record("unregisterVirtualModel"),
		...overrides.providers,
	};
	runner.bindCore(core, context, providers);
	return { calls };
}
