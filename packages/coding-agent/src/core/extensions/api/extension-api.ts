import type { ThinkingLevel } from "@tau/agent";
import type { Api, ImageContent, Model, OAuthCredentials, TextContent } from "@tau/ai";
import type { AutocompleteItem, Component, KeyId } from "@tau/tui";
import type { TSchema } from "typebox";
import type { ModelRoute, ModelRouteRequest, Settings, VirtualModelDefinition } from "../../../config/index.js";
import type { Theme } from "../../resources/themes/theme.js";
import type { SourceInfo } from "../../resources/types.js";
import type { CustomEntry, CustomMessage } from "../../session/index.js";
import type {
	CustomMessageInput,
	ExtensionCommandContext,
	ExtensionContext,
	ProjectTrustContext,
	SendMessageOptions,
	SendUserMessageOptions,
} from "./context.js";
import type { ExtensionEventName, ExtensionEventOf, ExtensionResultOf } from "./events.js";
import type { ToolDefinition, ToolInfo, ToolRendererResolver } from "./tool-definition.js";

type MaybePromise<T> = T | Promise<T>;

/** Handler of a known event: `project_trust` gets the reduced trust context. */
export type ExtensionHandler<E extends ExtensionEventName> = (
	event: ExtensionEventOf<E>,
	ctx: E extends "project_trust" ? ProjectTrustContext : ExtensionContext,
) => MaybePromise<ExtensionResultOf<E> | undefined>;

export interface RegisteredCommandOptions {
	description?: string;
	getArgumentCompletions?: (argumentPrefix: string) => MaybePromise<AutocompleteItem[] | null>;
	handler: (args: string, ctx: ExtensionCommandContext) => Promise<void>;
}

export interface RegisteredShortcutOptions {
	description?: string;
	handler: (ctx: ExtensionContext) => Promise<void> | void;
}

export type FlagOptions =
	| { description?: string; type: "boolean"; default?: boolean }
	| { description?: string; type: "string"; default?: string };

/**
 * Helpers for renderers to show the user's current key for an action: the bare key text, or a styled "key
 * description" hint.
 */
export interface KeybindingHints {
	keyText(id: string): string;
	keyHint(id: string, description: string): string;
}
/**
 * What a message renderer is told: whether the message is expanded, the padding to use, plus helpers to show key
 * bindings.
 */
export interface MessageRenderOptions extends KeybindingHints {
	expanded: boolean;
	outputPad: number;
}
/** What an entry renderer is told: whether the entry is expanded, plus helpers to show key bindings. */
export interface EntryRenderOptions extends KeybindingHints {
	expanded: boolean;
}
/**
 * Renders a custom message of one `customType` in the interactive transcript (register it with
 * `pi.registerMessageRenderer`).
 */
export type MessageRenderer<T = unknown> = (
	message: CustomMessage<T>,
	options: MessageRenderOptions,
	theme: Theme,
) => Component | undefined;
/**
 * Renders a custom session entry of one `customType` in the interactive transcript (register it with
 * `pi.registerEntryRenderer`).
 */
export type EntryRenderer<T = unknown> = (
	entry: CustomEntry<T>,
	options: EntryRenderOptions,
	theme: Theme,
) => Component | undefined;

/**
 * Which kind of transcript text a markdown transformer is applied to (user, assistant, thinking, custom, summary
 * or changelog).
 */
export type MarkdownMessageType = "user" | "assistant" | "assistant-thinking" | "custom" | "summary" | "changelog";
/**
 * What a markdown transformer is told about the text it transforms: the message type, whether it is still
 * streaming and the available width.
 */
export interface MarkdownTransformContext {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	availableWidth: number;
	messageId?: string;
	timestamp?: number;
}
/**
 * Rewrites markdown before the interactive transcript renders it (register it with
 * `pi.registerMarkdownTransformer`).
 */
export type MarkdownTransformer = (markdown: string, ctx: MarkdownTransformContext) => string;
/** Options of `pi.registerMarkdownTransformer`: the message types the transformer applies to (all when omitted). */
export interface MarkdownTransformerOptions {
	messageTypes?: MarkdownMessageType[];
}

/** Options of `pi.exec()`: an abort signal, a timeout, the working directory and a cap on the captured output. */
export interface ExecOptions {
	signal?: AbortSignal;
	/** Milliseconds until SIGTERM (then SIGKILL after 5 s). */
	timeout?: number;
	cwd?: string;
	/** Cap of stdout + stderr combined, in characters of decoded output. */
	maxBuffer?: number;
}
/**
 * What `pi.exec()` resolves to: the captured stdout and stderr, the exit code, and whether the command was killed
 * or its output truncated.
 */
export interface ExecResult {
	stdout: string;
	stderr: string;
	code: number;
	killed: boolean;
	truncated: boolean;
}

/**
 * A slash command available in the session (from an extension, a prompt template or a skill), as
 * `pi.getCommands()` lists it.
 */
export interface SlashCommandInfo {
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	sourceInfo: SourceInfo;
}

/**
 * Provider registration as extensions write it (docs/design/extensions.md#providers). The model runtime interprets it;
 * the extension system only stores and forwards it.
 */
export interface ExtensionProviderConfig {
	name?: string;
	baseUrl?: string;
	apiKey?: string;
	api?: Api;
	streamSimple?: (...args: any[]) => unknown;
	headers?: Record<string, string>;
	authHeader?: boolean;
	models?: Record<string, unknown>[];
	refreshModels?(ctx: unknown): Promise<Record<string, unknown>[]>;
	/** An OAuth login for this provider (`/login`): how to log in, refresh, and turn credentials into a key. */
	oauth?: {
		name: string;
		isSubscription?: boolean;
		usesCallbackServer?: boolean;
		login(callbacks: any): Promise<OAuthCredentials>;
		refreshToken(credentials: OAuthCredentials, signal: AbortSignal): Promise<OAuthCredentials>;
		getApiKey(credentials: OAuthCredentials): string;
		modifyModels?(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[];
	};
	[key: string]: unknown;
}

/** A complete native provider object (`@tau/ai` Provider shape), registered by its `id`. */
export interface NativeProvider {
	id: string;
	[key: string]: unknown;
}

/** A virtual model registered by an extension: its router also receives the extension context. */
export interface ExtensionVirtualModel<TState = unknown> extends Omit<VirtualModelDefinition<TState>, "route"> {
	route(request: ModelRouteRequest<TState>, ctx: ExtensionContext): MaybePromise<ModelRoute<TState>>;
}

/** An `mcpServers` entry of mcp.json (stdio or HTTP); validated by the MCP layer. */
export interface McpServerConfig {
	command?: string;
	args?: string[];
	env?: Record<string, string>;
	cwd?: string;
	url?: string;
	headers?: Record<string, string>;
	exposure?: "codemode" | "deferred" | "direct" | "hidden" | "codemode-deferred";
	enabled?: boolean;
	timeout?: number;
	description?: string;
	[key: string]: unknown;
}
/** An MCP server an extension registered, with its configuration and the extension that registered it. */
export interface RegisteredMcpServer {
	name: string;
	config: McpServerConfig;
	extensionPath: string;
}

/**
 * A publish/subscribe channel shared by all extensions of a session (`pi.events`), for extensions to talk to each
 * other; `on` returns an unsubscribe function.
 */
export interface EventBus {
	emit(channel: string, data: unknown): void;
	on(channel: string, handler: (data: unknown) => unknown): () => void;
}

/** The object an extension factory receives (docs/design/extensions.md#the-extension-api). */
export interface ExtensionAPI {
	on<E extends ExtensionEventName>(event: E, handler: ExtensionHandler<E>): () => void;
	on(event: string, handler: (event: any, ctx: ExtensionContext) => unknown): () => void;

	registerTool<P extends TSchema, D = unknown, S = any>(tool: ToolDefinition<P, D, S>): void;
	registerCommand(name: string, options: RegisteredCommandOptions): void;
	registerShortcut(shortcut: KeyId, options: RegisteredShortcutOptions): void;
	registerFlag(name: string, options: FlagOptions): void;
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer<T = unknown>(customType: string, renderer: MessageRenderer<T>): void;
	registerMarkdownTransformer(transformer: MarkdownTransformer, options?: MarkdownTransformerOptions): void;
	registerEntryRenderer<T = unknown>(customType: string, renderer: EntryRenderer<T>): void;
	registerToolRenderer(resolver: ToolRendererResolver): void;

	sendMessage<T = unknown>(message: CustomMessageInput<T>, options?: SendMessageOptions): void;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): void;
	appendEntry<T = unknown>(customType: string, data?: T): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(toolNames: string[]): void;
	getCommands(): SlashCommandInfo[];
	getSettings(): Settings;
	setModel(model: Model<any>): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;

	registerProvider(provider: NativeProvider): void;
	registerProvider(name: string, config: ExtensionProviderConfig): void;
	unregisterProvider(name: string): void;
	registerVirtualModel<TState = unknown>(model: ExtensionVirtualModel<TState>): void;
	unregisterVirtualModel(provider: string, id: string): void;
	registerMcpServer(name: string, config: McpServerConfig): void;
	unregisterMcpServer(name: string): void;
	getMcpServers(): RegisteredMcpServer[];

	readonly events: EventBus;
}

/**
 * The default export of an extension module: receives the extension API and registers tools, commands and event
 * handlers (it may be async).
 */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
