import type { SourceInfo } from "../../resources/types.js";
import type {
	EntryRenderer,
	FlagOptions,
	MarkdownTransformer,
	MarkdownTransformerOptions,
	McpServerConfig,
	MessageRenderer,
	RegisteredCommandOptions,
	RegisteredShortcutOptions,
} from "../api/extension-api.js";
import type { AnyToolDefinition, ToolRendererResolver } from "../api/tool-definition.js";

export type AnyHandler = (event: any, ctx: any) => unknown;

/** A tool an extension registered, with its definition and the extension it came from. */
export interface RegisteredTool {
	definition: AnyToolDefinition;
	extensionPath: string;
	sourceInfo: SourceInfo;
}
/** A slash command an extension registered, with its options and the extension it came from. */
export interface RegisteredCommand {
	name: string;
	options: RegisteredCommandOptions;
	extensionPath: string;
	sourceInfo: SourceInfo;
}
export interface RegisteredFlag {
	name: string;
	options: FlagOptions;
	extensionPath: string;
}
export interface RegisteredShortcut {
	key: string;
	options: RegisteredShortcutOptions;
	extensionPath: string;
}
export interface RegisteredMarkdownTransformer {
	transformer: MarkdownTransformer;
	options: MarkdownTransformerOptions;
}

/** A runtime change made while the factory ran, with the event its failure is reported under. */
export interface DeferredChange {
	event: "register_provider" | "register_virtual_model" | "register_mcp_server";
	apply: () => void;
}

/**
 * One loaded extension: its registration tables, written only through its own `pi` object. The
 * runner reads them; `state` decides whether the API still accepts calls.
 */
export interface Extension {
	/** Display path: a file or directory path, `builtin:<name>` or `<inline:NAME>`. */
	path: string;
	resolvedPath: string;
	/** The directory item it came from, when that directory has several entry files. */
	itemPath?: string;
	sourceInfo: SourceInfo;
	hidden: boolean;
	replaceable: boolean;
	state: "loading" | "active" | "failed";
	handlers: Map<string, AnyHandler[]>;
	tools: Map<string, RegisteredTool>;
	commands: Map<string, RegisteredCommand>;
	flags: Map<string, RegisteredFlag>;
	shortcuts: Map<string, RegisteredShortcut>;
	messageRenderers: Map<string, MessageRenderer<any>>;
	entryRenderers: Map<string, EntryRenderer<any>>;
	markdownTransformer: RegisteredMarkdownTransformer | undefined;
	toolRendererResolvers: ToolRendererResolver[];
	mcpServers: Map<string, McpServerConfig>;
	/** Runtime changes made while the factory ran; applied only if it completes. */
	deferredChanges: DeferredChange[];
	/** `pi.events` unsubscribers, removed when the factory fails or the runtime is invalidated. */
	eventSubscriptions: Set<() => void>;
}

export function createExtensionRecord(input: {
	path: string;
	resolvedPath?: string;
	sourceInfo: SourceInfo;
	hidden?: boolean;
	replaceable?: boolean;
}): Extension {
	return {
		path: input.path,
		resolvedPath: input.resolvedPath ?? input.path,
		sourceInfo: input.sourceInfo,
		hidden: input.hidden ?? false,
		replaceable: input.replaceable ?? false,
		state: "loading",
		handlers: new Map(),
		tools: new Map(),
		commands: new Map(),
		flags: new Map(),
		shortcuts: new Map(),
		messageRenderers: new Map(),
		entryRenderers: new Map(),
		markdownTransformer: undefined,
		toolRendererResolvers: [],
		mcpServers: new Map(),
		deferredChanges: [],
		eventSubscriptions: new Set(),
	};
}
