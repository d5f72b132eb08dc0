import type { Api, AssistantMessage, Model } from "@tau/ai";
import type { ScopedModel } from "../../config/index.js";
import type { SummaryCompletion } from "../compaction/index.js";
import { errorMessage } from "../errors.js";
import type { ExtensionRunner, NestedToolCallExecutor } from "../extensions/index.js";
import { type AgentEventHost, handleAgentEvent } from "./agent-event-pipeline.js";
import { installAgentHooks } from "./agent-hooks.js";
import { CompactionCoordinator } from "./compaction-coordinator.js";
import { type AgentSessionEvent, SessionEventHub } from "./events.js";
import { ExtensionBridge } from "./extension-bridge.js";
import { normalizeDeliveredImages } from "./image-normalization.js";
import { MessageQueues } from "./message-queues.js";
import { ModelSelection } from "./model-selection.js";
import { createNestedCalls } from "./nested-calls.js";
import { SessionPersistence } from "./persistence.js";
import { PromptState } from "./prompt-state.js";
import { OverflowRecovery, RetryPolicy, realSleep } from "./recovery-loop.js";
import { RunLauncher } from "./run-launcher.js";
import type { RunState } from "./run-loop.js";
import { SessionOpening } from "./session-opening.js";
import { recordToolIntent } from "./tool-intents.js";
import { SessionToolLoadout } from "./tool-loadout.js";
import { ToolRegistry } from "./tool-registry.js";
import type { NavigationHost } from "./tree-navigation.js";
import type { AgentSessionConfig } from "./types.js";
import { UserBash } from "./user-bash.js";
import { VirtualModels } from "./virtual-models.js";
import { type RoutingHost, routedCompletion, routeLoopRequest } from "./virtual-routing.js";

/** What of the session the collaborators reach after wiring: state that changes (the runner on reload). */
export interface WiringHost {
	readonly run: RunState;
	runner(): ExtensionRunner;
	scopedModels(): ScopedModel[];
	setScopedModels(models: ScopedModel[]): void;
	/** Re-derives the agent's messages from the session tree. */
	refreshContext(): void;
}

/** The collaborators `AgentSession` sequences, each owning one part of a conversation. */
export interface SessionCollaborators {
	virtualModels: VirtualModels;
	hub: SessionEventHub;
	persistence: SessionPersistence;
	complete: SummaryCompletion;
	tools: ToolRegistry;
	loadout: SessionToolLoadout;
	opening: SessionOpening;
	prompts: PromptState;
	/** What compaction, branch summaries and tree navigation share. */
	summaries: Omit<NavigationHost, "afterMove">;
	compaction: CompactionCoordinator;
	retry: RetryPolicy;
	overflow: OverflowRecovery;
	bridge: ExtensionBridge;
	userBash: UserBash;
	selection: ModelSelection;
	queues: MessageQueues;
	launcher: RunLauncher;
	nested: NestedToolCallExecutor;
	/** The physical model (and level) of the latest request routed through a virtual selection. */
	routed(): { model: Model<Api>; thinkingLevel?: string } | undefined;
	/** Stops the relay of agent events into the session. */
	unsubscribeAgent: () => void;
}

/**
 * Builds the collaborator graph of one session and connects it to the agent (hooks and the event
 * pipeline). Callbacks reach state that is created later or replaced (the runner) through `host`.
 */
export function wireSession(config: AgentSessionConfig, host: WiringHost): SessionCollaborators {
	const { agent, sessionManager, settingsManager } = config;
	const selected = () => selection.model;
	const level = () => selection.thinkingLevel;
	/** The assistant message whose tool calls are executing (nested calls report against it). */
	let currentAssistant: AssistantMessage | undefined;
	let routed: { model: Model<Api>; thinkingLevel?: string } | undefined;
	const modelOf = (message: AssistantMessage): Model<Api> | undefined => {
		const current = selected();
		return (
			(config.modelRuntime.getModel(message.provider, message.model) as Model<Api> | undefined) ??
			(current?.provider === message.provider && current.id === message.model ? current : undefined)
		);
	};
	const recordIntent = (toolCallId: string, toolName: string) => {
		const replay = tools.getTool(toolName)?.replay === "safe" ? "safe" : "never";
		persistence.appendAnnounced(() => recordToolIntent(sessionManager, { toolCallId, toolName, replay }), {
			tauOnly: true,
		});
	};
	const virtualModels = new VirtualModels(config.modelRuntime);
	const hub = new SessionEventHub((error) => {
		host.runner().runtime.reportError({
			extensionPath: "<subscriber>",
			event: "subscribe",
			error: errorMessage(error),
		});
	});
	const persistence = new SessionPersistence(sessionManager, (entry, tauOnly) =>
		hub.emit({ type: "entry_appended", entry }, { tauOnly }),
	);
	const routing: RoutingHost = {
		virtualModels,
		sessionManager,
		persistence,
		run: host.run,
		selected,
		thinkingLevel: level,
	};
	const complete = routedCompletion(
		routing,
		config.complete ??
			((model, context, options) => config.modelRuntime.models.completeSimple(model, context, options)),
	);
	const tools = new ToolRegistry(
		{
			cwd: config.cwd,
			settingsManager: config.settingsManager,
			initialActiveToolNames: config.initialActiveToolNames,
			...(config.customTools ? { customTools: config.customTools } : {}),
			...(config.allowedToolNames ? { allowedToolNames: config.allowedToolNames } : {}),
			...(config.excludedToolNames ? { excludedToolNames: config.excludedToolNames } : {}),
		},
		() => host.runner(),
		() => nested,
	);
	const loadout = new SessionToolLoadout({
		agent,
		sessionManager,
		settingsManager,
		tools,
		usesDefaultTools: config.usesDefaultTools === true,
		modifiers: config.defaultToolModifiers,
		runner: () => host.runner(),
	});
	const prompts = new PromptState({
		cwd: config.cwd,
		loader: config.resourceLoader,
		tools,
		hidden: () => loadout.hiddenDeclarations,
		declared: () => agent.state.tools,
	});
	// What compaction and branch summaries share: the tree, settings, model and the summary call.
	const summaries: Omit<NavigationHost, "afterMove"> = {
		sessionManager,
		settingsManager,
		model: selected,
		thinkingLevel: level,
		complete,
		runner: () => host.runner(),
		emit: (event) => hub.emit(event),
		retryPolicy: () => settingsManager.getRetrySettings(),
	};
	const compaction = new CompactionCoordinator({ ...summaries, refreshContext: host.refreshContext });
	const recoveryHost = {
		agent,
		sessionManager,
		settingsManager,
		persistence,
		compaction,
		emit: (event: AgentSessionEvent) => hub.emit(event),
		sleep: config.retrySleep ?? realSleep,
		modelOf,
		// Under a virtual selection the limits come from the model that answered last.
		currentModel: () => (routed && virtualModels.isVirtual(selected()) ? routed.model : selected()),
		refreshContext: host.refreshContext,
	};
	const retry = new RetryPolicy(recoveryHost);
	const overflow = new OverflowRecovery(recoveryHost);
	const bridge = new ExtensionBridge({
		sessionManager,
		persistence,
		runner: () => host.runner(),
		recordToolIntent: recordIntent,
		refreshContext: host.refreshContext,
		pendingMessages: () => agent.peekQueuedMessages(),
	});
	const userBash = new UserBash({
		cwd: config.cwd,
		sessionManager,
		settingsManager,
		isRunning: () => host.run.running,
		append: (message) => {
			sessionManager.appendMessage(message);
			host.refreshContext();
		},
	});
	const selection = new ModelSelection({
		agent,
		sessionManager,
		settingsManager,
		modelRuntime: config.modelRuntime,
		persistence,
		runner: () => host.runner(),
		emit: (event) => hub.emit(event),
		scopedModels: host.scopedModels,
		setScopedModels: host.setScopedModels,
		isVirtual: (model) => virtualModels.isVirtual(model),
	});
	const queues = new MessageQueues(agent, (event) => hub.emit(event));
	const launcher = new RunLauncher({
		agent,
		sessionManager,
		settingsManager,
		persistence,
		state: host.run,
		tools,
		prompts,
		loadout,
		selection,
		userBash,
		retry,
		overflow,
		bridge,
		runner: () => host.runner(),
		emit: (event) => hub.emit(event),
		refreshContext: host.refreshContext,
	});
	const nested = createNestedCalls({
		agent,
		bridge,
		runner: () => host.runner(),
		callableTools: () => tools.getCallableTools(),
		currentAssistant: () => currentAssistant,
		emit: (event) => hub.emit(event),
	});
	installAgentHooks({
		agent,
		sessionManager,
		bridge,
		prompts,
		overflow,
		hiddenDeclarations: () => loadout.hiddenDeclarations,
		hasModel: () => selected() !== undefined,
		routeRequest: async (messages, signal) => {
			const next = await routeLoopRequest(routing, messages, signal);
			if (next) routed = next;
			return next;
		},
	});
	const eventHost: AgentEventHost = {
		agent,
		run: host.run,
		overflow,
		retry,
		queues,
		nested,
		bridge,
		persistence,
		hub,
		setCurrentAssistant: (message) => {
			currentAssistant = message;
		},
		flushPendingCustom: () => launcher.flushPendingCustom(),
		normalizeImages: (message) =>
			normalizeDeliveredImages(message as never, selected(), settingsManager.getImageAutoResize()),
	};
	const unsubscribeAgent = agent.subscribe((event) => handleAgentEvent(eventHost, event));
	const opening = new SessionOpening({
		sessionManager,
		loadout,
		tools,
		persistence,
		refreshContext: () => host.refreshContext(),
	});
	return {
		virtualModels,
		hub,
		persistence,
		complete,
		tools,
		loadout,
		opening,
		prompts,
		summaries,
		compaction,
		retry,
		overflow,
		bridge,
		userBash,
		selection,
		queues,
		launcher,
		nested,
		routed: () => routed,
		unsubscribeAgent,
	};
}
