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

export interface KeybindingHints {
	keyText(id: string): string;
	keyHint(id: string, description: string): string;
}
export interface MessageRenderOptions extends KeybindingHints {
	expanded: boolean;
	outputPad: number;
}
export interface EntryRenderOptions extends KeybindingHints {
	expanded: boolean;
}
export type MessageRenderer<T = unknown> = (
	message: CustomMessage<T>,
	options: MessageRenderOptions,
	theme: Theme,
) => Component | undefined;
export type EntryRenderer<T = unknown> = (
	entry: CustomEntry<T>,
	options: EntryRenderOptions,
	theme: Theme,
) => Component | undefined;

export type MarkdownMessageType = "user" | "assistant" | "assistant-thinking" | "custom" | "summary" | "changelog";
export interface MarkdownTransformContext {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	availableWidth: number;
	messageId?: string;
	timestamp?: number;
}
export type MarkdownTransformer = (markdown: string, ctx: MarkdownTransformContext) => string;
export interface MarkdownTransformerOptions {
	messageTypes?: MarkdownMessageType[];
}

export interface ExecOptions {
	signal?: AbortSignal;
	/** Milliseconds until SIGTERM (then SIGKILL after 5 s). */
	timeout?: number;
	cwd?: string;
	/** Cap of stdout + stderr combined, in characters of decoded output. */
	maxBuffer?: number;
}
export interface ExecResult {
	stdout: string;
	stderr: string;
	code: number;
	killed: boolean;
	truncated: boolean;
}

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
export interface RegisteredMcpServer {
	name: string;
	config: McpServerConfig;
	extensionPath: string;
}

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

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
