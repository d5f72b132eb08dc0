import type { AgentMessage } from "@tau/agent";
import type { Theme } from "../../resources/themes/theme.js";
import type { ExtensionCommandContext, ExtensionContext, ExtensionUIContext } from "../api/context.js";
import type {
	BoundaryContextPreview,
	CacheWarmingDecisionEvent,
	DiscoveredResourcePaths,
	ExtensionMode,
	InputEvent,
	InputEventResult,
	NormalizedBuildSystemPromptOptions,
	ProviderHeaders,
	ResourcesDiscoverEvent,
	SessionBoundaryDraft,
	ToolCallEvent,
	ToolResultEvent,
	UiPromptEvent,
	UserBashEvent,
} from "../api/events.js";
import type { ExtensionToolContext } from "../api/tool-definition.js";
import type { ExtensionCommandContextActions, ExtensionContextActions } from "../context/context-actions.js";
import { createNoOpUIContext } from "../context/no-op-ui.js";
import { trackUiPrompts } from "../context/ui-prompt-tracking.js";
import {
	NESTED_CALLS_UNAVAILABLE,
	type NestedToolCallExecutor,
	nestedErrorOutcome,
} from "../nested-calls/nested-tool-calls.js";
import { type ResolvedCommand, resolveCommands } from "../registry/commands.js";
import { resolveExtensionTools } from "../registry/tools.js";
import type { ExtensionError } from "../runtime/errors.js";
import type { Extension, RegisteredFlag, RegisteredTool } from "../runtime/extension.js";
import type { ExtensionCoreActions, ExtensionProviderActions, ExtensionRuntime } from "../runtime/extension-runtime.js";
import {
	type BeforeAgentStartInput,
	type BeforeAgentStartOutcome,
	dispatchBeforeAgentStart,
} from "./dispatch/before-agent-start.js";
import { type BoundaryProposal, dispatchBoundary } from "./dispatch/boundary.js";
import { dispatchContext, dispatchContextWithSystem } from "./dispatch/context.js";
import type { DispatchHost, HandlerEntry } from "./dispatch/dispatch-host.js";
import { dispatchInput } from "./dispatch/input.js";
import { dispatchMessageEnd } from "./dispatch/message-end.js";
import { dispatchNotification } from "./dispatch/notification.js";
import {
	dispatchBeforeProviderHeaders,
	dispatchBeforeProviderRequest,
	dispatchCacheWarmingDecision,
} from "./dispatch/provider-request.js";
import { dispatchResourcesDiscover } from "./dispatch/resources-discover.js";
import { dispatchSessionBefore } from "./dispatch/session-before.js";
import { dispatchToolCall, type ToolCallDecision } from "./dispatch/tool-call.js";
import { dispatchToolResult } from "./dispatch/tool-result.js";
import { dispatchUserBash, type UserBashDecision } from "./dispatch/user-bash.js";

const NO_SESSION_CONTROL =
	"This host does not provide session control to extension commands (newSession, fork, navigateTree, switchSession, reload, waitForIdle).";

export interface ExtensionRunnerOptions {
	extensions: readonly Extension[];
	runtime: ExtensionRuntime;
	cwd: string;
	/** The theme a no-op UI reports (default: the one the extension loader attached to the runtime). */
	theme?: Theme;
}

/**
 * Owns one loaded extension set for one session runtime: binds the session's actions, builds the
 * live `ctx` objects, and dispatches every event with its strategy (docs/design/extensions.md#dispatch). Handlers run
 * sequentially in load order, then registration order, over a snapshot taken when the dispatch starts.
 */
export class ExtensionRunner {
	readonly extensions: readonly Extension[];
	readonly runtime: ExtensionRuntime;
	readonly cwd: string;
	private contextActions: ExtensionContextActions | undefined;
	private commandActions: ExtensionCommandContextActions | undefined;
	private ui: ExtensionUIContext;
	private uiBound = false;
	private currentMode: ExtensionMode = "print";
	private readonly theme: Theme | undefined;
	private readonly host: DispatchHost;
	private readonly reportedMcpServers = new Set<string>();

	constructor(options: ExtensionRunnerOptions) {
		this.extensions = options.extensions;
		this.runtime = options.runtime;
		this.cwd = options.cwd;
		this.theme = options.theme ?? options.runtime.theme;
		this.ui = this.noOpUI();
		this.host = {
			handlers: (event) => this.handlerSnapshot(event),
			context: () => this.createContext(),
			report: (extensionPath, event, error) => this.runtime.report(extensionPath, event, error),
		};
	}

	// Binding

	/** Installs the session: action methods stop throwing and queued provider registrations flush. */
	bindCore(
		actions: ExtensionCoreActions,
		contextActions: ExtensionContextActions,
		providerActions?: ExtensionProviderActions,
	): void {
		this.runtime.actions = actions;
		this.runtime.coreBound = true;
		this.runtime.createContext = () => this.createContext();
		this.contextActions = contextActions;
		this.runtime.onMcpServersChange = () => {
			this.reportUnhandledMcpServers();
			void this.emit({ type: "mcp_servers_change" });
		};
		if (providerActions) this.runtime.bindProviders(providerActions);
	}

	bindCommandContext(actions?: ExtensionCommandContextActions): void {
		this.commandActions = actions;
	}

	/** Installs the mode's UI; without one a no-op UI is used and `hasUI` is false. */
	setUIContext(ui?: ExtensionUIContext, mode: ExtensionMode = "print"): void {
		this.currentMode = mode;
		this.uiBound = ui !== undefined;
		this.ui = ui ? trackUiPrompts(ui, (event) => this.emitUiPrompt(event)) : this.noOpUI();
	}

	onError(listener: (error: ExtensionError) => void): () => void {
		return this.runtime.onError(listener);
	}

	/** Session replaced, reloaded or disposed: every `ctx` and `pi` of this runner becomes stale. */
	invalidate(): void {
		for (const extension of this.extensions) {
			for (const unsubscribe of [...extension.eventSubscriptions]) unsubscribe();
		}
		this.runtime.invalidate();
	}

	get mode(): ExtensionMode {
		return this.currentMode;
	}

	get hasUI(): boolean {
		return this.uiBound;
	}

	// Registrations

	/** Asked twice for every streamed delta, so a plain loop: no closure per call. */
	hasHandlers(event: string): boolean {
		for (const extension of this.extensions) if ((extension.handlers.get(event)?.length ?? 0) > 0) return true;
		return false;
	}

	getTools(): RegisteredTool[] {
		return resolveExtensionTools(this.extensions);
	}

	getCommands(): ResolvedCommand[] {
		return resolveCommands(this.extensions);
	}

	getCommand(invocationName: string): ResolvedCommand | undefined {
		return this.getCommands().find((command) => command.invocationName === invocationName);
	}

	/** Flags in load order; the first extension wins a name. */
	getFlags(): RegisteredFlag[] {
		const flags = new Map<string, RegisteredFlag>();
		for (const extension of this.extensions) {
			for (const flag of extension.flags.values()) if (!flags.has(flag.name)) flags.set(flag.name, flag);
		}
		return [...flags.values()];
	}

	setFlagValue(name: string, value: boolean | string): void {
		this.runtime.flagValues.set(name, value);
	}

	/**
	 * Reports each extension-registered MCP server once when no loaded extension handles
	 * `mcp_servers_change` (nothing would connect it). Called after binding, on session start,
	 * reload and each change.
	 */
	reportUnhandledMcpServers(): void {
		if (this.hasHandlers("mcp_servers_change")) return;
		for (const server of this.runtime.mcpServers) {
			const key = `${server.extensionPath}\0${server.name}`;
			if (this.reportedMcpServers.has(key)) continue;
			this.reportedMcpServers.add(key);
			this.runtime.report(
				server.extensionPath,
				"register_mcp_server",
				new Error(
					`MCP server "${server.name}" is registered but no loaded extension connects MCP servers (none handles mcp_servers_change).`,
				),
			);
		}
	}

	// Contexts

	/** A live context: every property is read from the session when accessed. */
	createContext(): ExtensionContext {
		const actions = () => {
			this.runtime.assertNotStale();
			if (!this.contextActions) throw new Error("Extension context is not bound to a session yet.");
			return this.contextActions;
		};
		const live = () => {
			this.runtime.assertNotStale();
			return this;
		};
		return {
			get ui() {
				return live().ui;
			},
			get mode() {
				return live().currentMode;
			},
			get hasUI() {
				return live().uiBound;
			},
			get cwd() {
				return live().cwd;
			},
			get sessionManager() {
				return actions().getSessionManager();
			},
			get modelRegistry() {
				return actions().getModelRegistry();
			},
			get model() {
				return actions().getModel();
			},
			get scopedModels() {
				return actions().getScopedModels();
			},
			get thinkingLevel() {
				return actions().getThinkingLevel();
			},
			isIdle: () => actions().isIdle(),
			isProjectTrusted: () => actions().isProjectTrusted(),
			get signal() {
				return actions().getSignal();
			},
			abort: () => actions().abort(),
			hasPendingMessages: () => actions().hasPendingMessages(),
			shutdown: () => actions().shutdown(),
			getContextUsage: () => actions().getContextUsage(),
			compact: (options) => actions().compact(options),
			getSystemPrompt: () => actions().getSystemPrompt(),
		};
	}

	/**
	 * The context of one tool execution: `signal` is the call's signal, `tools` the callable set and
	 * `executeTool` runs nested calls as `<toolCallId>/N` (an error outcome where the host has none).
	 */
	createToolContext(
		toolCallId: string,
		signal: AbortSignal | undefined,
		nested?: NestedToolCallExecutor,
	): ExtensionToolContext {
		const context = Object.create(null) as ExtensionToolContext;
		Object.defineProperties(context, Object.getOwnPropertyDescriptors(this.createContext()));
		const runtime = this.runtime;
		Object.defineProperties(context, {
			signal: {
				enumerable: true,
				get() {
					runtime.assertNotStale();
					return signal;
				},
			},
			tools: {
				enumerable: true,
				get() {
					runtime.assertNotStale();
					return nested ? nested.callableTools() : [];
				},
			},
			executeTool: {
				enumerable: true,
				value: async (
					name: string,
					args: unknown,
					options?: Parameters<ExtensionToolContext["executeTool"]>[2],
				) => {
					runtime.assertNotStale();
					if (!nested) return nestedErrorOutcome(`${toolCallId}/0`, name, args, NESTED_CALLS_UNAVAILABLE);
					return nested.executeTool(toolCallId, name, args, options, signal);
				},
			},
		});
		return context;
	}

	/** A command context; built with property descriptors so the stale checks stay lazy. */
	createCommandContext(): ExtensionCommandContext {
		const context = Object.create(null) as ExtensionCommandContext;
		Object.defineProperties(context, Object.getOwnPropertyDescriptors(this.createContext()));
		const control = () => {
			this.runtime.assertNotStale();
			if (!this.commandActions) throw new Error(NO_SESSION_CONTROL);
			return this.commandActions;
		};
		const deferred = <T>(run: () => Promise<T>): Promise<T> => {
			try {
				return run();
			} catch (error) {
				return Promise.reject(error);
			}
		};
		Object.assign(context, {
			getSystemPromptOptions: () => {
				this.runtime.assertNotStale();
				if (!this.contextActions) throw new Error("Extension context is not bound to a session yet.");
				return this.contextActions.getSystemPromptOptions();
			},
			waitForIdle: () => deferred(() => control().waitForIdle()),
			newSession: (options?: Parameters<ExtensionCommandContext["newSession"]>[0]) =>
				deferred(() => control().newSession(options)),
			fork: (entryId: string, options?: Parameters<ExtensionCommandContext["fork"]>[1]) =>
				deferred(() => control().fork(entryId, options)),
			navigateTree: (targetId: string, options?: Parameters<ExtensionCommandContext["navigateTree"]>[1]) =>
				deferred(() => control().navigateTree(targetId, options)),
			switchSession: (sessionPath: string, options?: Parameters<ExtensionCommandContext["switchSession"]>[1]) =>
				deferred(() => control().switchSession(sessionPath, options)),
			reload: () => deferred(() => control().reload()),
		});
		return context;
	}

	// Dispatch

	/**
	 * Notification events (awaited, return ignored) and `session_before_*` (cancel / field-wise merge).
	 * Unknown event names are dispatched as notifications.
	 */
	async emit(event: { type: string; [key: string]: unknown }): Promise<unknown> {
		if (event.type.startsWith("session_before_")) return dispatchSessionBefore(this.host, event);
		await dispatchNotification(this.host, event);
		return undefined;
	}

	emitToolCall(event: ToolCallEvent, signal?: AbortSignal): Promise<ToolCallDecision> {
		return dispatchToolCall(this.host, event, signal);
	}

	emitToolResult(event: ToolResultEvent): Promise<ToolResultEvent> {
		return dispatchToolResult(this.host, event);
	}

	emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		return dispatchContext(this.host, messages);
	}

	emitContextWithSystem(messages: AgentMessage[]): Promise<AgentMessage[]> {
		return dispatchContextWithSystem(this.host, messages);
	}

	emitInput(input: Omit<InputEvent, "type">): Promise<InputEventResult> {
		return dispatchInput(this.host, input);
	}

	emitBeforeAgentStart(
		input: BeforeAgentStartInput,
		systemPromptOptions: NormalizedBuildSystemPromptOptions,
		renderSystemPrompt: (options: NormalizedBuildSystemPromptOptions) => string,
	): Promise<BeforeAgentStartOutcome> {
		return dispatchBeforeAgentStart(this.host, input, systemPromptOptions, renderSystemPrompt);
	}

	emitMessageEnd(message: AgentMessage): Promise<boolean> {
		return dispatchMessageEnd(this.host, message);
	}

	emitBoundary(
		base: Parameters<typeof dispatchBoundary>[1],
		buildPreview: (entries: readonly SessionBoundaryDraft[]) => BoundaryContextPreview,
	): Promise<BoundaryProposal> {
		return dispatchBoundary(this.host, base, buildPreview);
	}

	emitUserBash(event: UserBashEvent): Promise<UserBashDecision> {
		return dispatchUserBash(this.host, event);
	}

	emitBeforeProviderHeaders(headers: ProviderHeaders): Promise<ProviderHeaders> {
		return dispatchBeforeProviderHeaders(this.host, headers);
	}

	emitBeforeProviderRequest(payload: unknown): Promise<unknown> {
		return dispatchBeforeProviderRequest(this.host, payload);
	}

	emitResourcesDiscover(event: ResourcesDiscoverEvent): Promise<DiscoveredResourcePaths> {
		return dispatchResourcesDiscover(this.host, event);
	}

	emitCacheWarmingDecision(event: CacheWarmingDecisionEvent): Promise<"warm" | "stop"> {
		return dispatchCacheWarmingDecision(this.host, event);
	}

	private emitUiPrompt(event: UiPromptEvent): void {
		if (this.runtime.isStale) return;
		void dispatchNotification(this.host, event);
	}

	private handlerSnapshot(event: string): HandlerEntry[] {
		const entries: HandlerEntry[] = [];
		for (const extension of this.extensions) {
			for (const handler of extension.handlers.get(event) ?? [])
				entries.push({ extensionPath: extension.path, handler });
		}
		return entries;
	}

	private noOpUI(): ExtensionUIContext {
		return createNoOpUIContext(() => {
			if (!this.theme)
				throw new Error(
					"No theme: extensions not loaded by the extension loader need ExtensionRunner's theme option",
				);
			return this.theme;
		});
	}
}
