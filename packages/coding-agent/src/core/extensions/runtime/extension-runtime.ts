import type { ThinkingLevel } from "@tau/agent";
import type { ImageContent, Model, TextContent } from "@tau/ai";
import type { Settings, VirtualModelDefinition } from "../../../config/index.js";
import type { Theme } from "../../resources/themes/theme.js";
import type {
	CustomMessageInput,
	ExtensionContext,
	SendMessageOptions,
	SendUserMessageOptions,
} from "../api/context.js";
import type {
	EventBus,
	ExtensionProviderConfig,
	NativeProvider,
	RegisteredMcpServer,
	SlashCommandInfo,
} from "../api/extension-api.js";
import type { ToolInfo } from "../api/tool-definition.js";
import { type ExtensionError, NOT_INITIALIZED_MESSAGE, STALE_CONTEXT_MESSAGE, toExtensionError } from "./errors.js";
import { createEventBus } from "./event-bus.js";

/** Session-side implementations of the `pi.*` action methods, installed by `bindCore`. */
export interface ExtensionCoreActions {
	sendMessage(message: CustomMessageInput, options: SendMessageOptions | undefined): void;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options: SendUserMessageOptions | undefined): void;
	appendEntry(customType: string, data: unknown): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(toolNames: string[]): void;
	/** Rebuilds the session's tool registry after a registration. */
	refreshTools(): void;
	getCommands(): SlashCommandInfo[];
	getSettings(): Settings;
	setModel(model: Model<any>): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;
}

/** Where provider and virtual-model registrations go once the session's model runtime exists. */
export interface ExtensionProviderActions {
	registerProvider(name: string, config: ExtensionProviderConfig, extensionPath: string): void;
	registerNativeProvider(provider: NativeProvider, extensionPath: string): void;
	unregisterProvider(name: string): void;
	/** The definition's `route` already supplies the extension context. */
	registerVirtualModel(definition: VirtualModelDefinition, extensionPath: string): void;
	unregisterVirtualModel(provider: string, id: string): void;
}

export interface PendingProviderRegistration {
	name: string;
	config: ExtensionProviderConfig;
	extensionPath: string;
}
export interface PendingNativeProviderRegistration {
	provider: NativeProvider;
	extensionPath: string;
}
export interface PendingVirtualModelRegistration {
	definition: VirtualModelDefinition;
	extensionPath: string;
}

function notInitialized(): never {
	throw new Error(NOT_INITIALIZED_MESSAGE);
}

/** Stubs that make misuse during loading visible (docs/design/extensions.md#two-phase-loading). */
function unboundActions(): ExtensionCoreActions {
	return {
		sendMessage: notInitialized,
		sendUserMessage: notInitialized,
		appendEntry: notInitialized,
		setSessionName: notInitialized,
		getSessionName: notInitialized,
		setLabel: notInitialized,
		getActiveTools: notInitialized,
		getAllTools: notInitialized,
		setActiveTools: notInitialized,
		// Registrations during load are picked up when the session builds its registry.
		refreshTools: () => {},
		getCommands: notInitialized,
		getSettings: notInitialized,
		setModel: () => Promise.reject(new Error("Extension runtime not initialized")),
		getThinkingLevel: notInitialized,
		setThinkingLevel: notInitialized,
	};
}

/**
 * State shared by all extensions of one loaded set: the action table (stubs until bound), pending
 * provider registrations, flag values, MCP registrations, the event bus and error listeners.
 */
export class ExtensionRuntime {
	actions: ExtensionCoreActions = unboundActions();
	providerActions: ExtensionProviderActions | undefined;
	readonly pendingProviderRegistrations: PendingProviderRegistration[] = [];
	readonly pendingNativeProviderRegistrations: PendingNativeProviderRegistration[] = [];
	readonly pendingVirtualModelRegistrations: PendingVirtualModelRegistration[] = [];
	/** Runtime flag values (CLI values and committed defaults), keyed by flag name. */
	readonly flagValues = new Map<string, boolean | string>();
	/** Extension-registered MCP servers in registration order. */
	readonly mcpServers: RegisteredMcpServer[] = [];
	/** Called after an MCP registration change once the core is bound. */
	onMcpServersChange: (() => void) | undefined;
	readonly eventBus: EventBus;
	private readonly errorListeners = new Set<(error: ExtensionError) => void>();
	private invalidated = false;

	constructor(options: { eventBus?: EventBus } = {}) {
		this.eventBus = options.eventBus ?? createEventBus();
	}

	/** True once the session installed its actions (`bindCore`). */
	coreBound = false;

	/**
	 * What `ctx.ui.theme` is without a UI (print, JSON, SDK sessions). The extension loader sets the
	 * built-in theme, so themes (and their colour helpers) load only when there are extensions.
	 */
	theme: Theme | undefined;

	/** The `ctx` of code that runs outside an event (virtual-model routers); the runner installs it when it binds. */
	createContext: () => ExtensionContext = notInitialized;

	get isStale(): boolean {
		return this.invalidated;
	}

	assertNotStale(): void {
		if (this.invalidated) throw new Error(STALE_CONTEXT_MESSAGE);
	}

	/** Marks every `pi` and `ctx` of this runtime stale; later errors are dropped. */
	invalidate(): void {
		this.invalidated = true;
		this.errorListeners.clear();
	}

	onError(listener: (error: ExtensionError) => void): () => void {
		this.errorListeners.add(listener);
		return () => this.errorListeners.delete(listener);
	}

	reportError(error: ExtensionError): void {
		if (this.invalidated) return;
		for (const listener of [...this.errorListeners]) listener(error);
	}

	report(extensionPath: string, event: string, error: unknown): void {
		this.reportError(toExtensionError(extensionPath, event, error));
	}

	/** Installs the provider backend and flushes registrations queued before binding. */
	bindProviders(actions: ExtensionProviderActions): void {
		this.providerActions = actions;
		for (const pending of this.pendingProviderRegistrations.splice(0)) {
			this.guard(pending.extensionPath, "register_provider", () =>
				actions.registerProvider(pending.name, pending.config, pending.extensionPath),
			);
		}
		for (const pending of this.pendingNativeProviderRegistrations.splice(0)) {
			this.guard(pending.extensionPath, "register_provider", () =>
				actions.registerNativeProvider(pending.provider, pending.extensionPath),
			);
		}
		for (const pending of this.pendingVirtualModelRegistrations.splice(0)) {
			this.guard(pending.extensionPath, "register_virtual_model", () =>
				actions.registerVirtualModel(pending.definition, pending.extensionPath),
			);
		}
	}

	private guard(extensionPath: string, event: string, action: () => void): void {
		try {
			action();
		} catch (error) {
			this.report(extensionPath, event, error);
		}
	}
}

/** Creates the runtime that a set of extensions shares (event bus and late-bound session actions). */
export function createExtensionRuntime(options: { eventBus?: EventBus } = {}): ExtensionRuntime {
	return new ExtensionRuntime(options);
}
