import type { AgentTool, AgentToolCallOutcome, AgentToolResult, AgentToolUpdateCallback } from "@tau/agent";
import type { ConstrainedSamplingConfig } from "@tau/ai";
import type { Component } from "@tau/tui";
import type { Static, TSchema } from "typebox";
import type { Theme } from "../../resources/themes/theme.js";
import type { SourceInfo } from "../../resources/types.js";
import type {
	BashToolDetails,
	EditToolDetails,
	FindToolDetails,
	GrepToolDetails,
	LsToolDetails,
	ReadToolDetails,
} from "../../tools/index.js";
import type { ExtensionContext } from "./context.js";
import type { BuiltinToolInputs, ToolCallEvent, ToolResultEvent } from "./events.js";

/** How a tool is offered: to the model, to scripts (`ctx.executeTool`), to `tool_search`, or not at all. */
export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/**
 * A namespace grouping a tool with related tools (for example the tools of one MCP server), with aliases, a
 * description and instructions for the model.
 */
export interface ToolNamespace {
	name: string;
	aliases?: string[];
	description?: string;
	instructions?: string;
}

/** MCP tool-annotation hints; unverified. */
export interface ToolAnnotations {
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

/**
 * What a tool's `prepareLoadout` sees before a request: the declared, callable and registered tools, and each
 * tool's exposure, namespace and prompt guidelines.
 */
export interface ToolLoadout {
	readonly declared: readonly AgentTool<any>[];
	readonly callable: readonly AgentTool<any>[];
	readonly registered: readonly AgentTool<any>[];
	getExposure(name: string): ToolExposure;
	getNamespace(name: string): ToolNamespace | undefined;
	getPromptGuidelines(name: string): readonly string[];
}
/** What `prepareLoadout` may return: changed tool descriptions and tools whose declarations to hide from the model. */
export interface ToolLoadoutChanges {
	descriptions?: Readonly<Record<string, string>>;
	hiddenDeclarations?: readonly string[];
}

/** Per-call context of a tool's `execute` (docs/design/extensions.md#tool-context). */
export interface ExtensionToolContext extends ExtensionContext {
	/** Tools `executeTool` can call (the callable set). */
	readonly tools: readonly AgentTool<any>[];
	executeTool(
		name: string,
		args: unknown,
		options?: { signal?: AbortSignal; onUpdate?: AgentToolUpdateCallback },
	): Promise<AgentToolCallOutcome>;
}

/**
 * What a tool's renderers are told: the call's arguments and id, a way to ask for a re-render, and the renderer's
 * own state.
 */
export interface ToolRenderContext<TState = any, TArgs = any> {
	args: TArgs;
	toolCallId: string;
	invalidate(): void;
	lastComponent: Component | undefined;
	state: TState;
	cwd: string;
	executionStarted: boolean;
	argsComplete: boolean;
	isPartial: boolean;
	expanded: boolean;
	showImages: boolean;
	isError: boolean;
	durationMs: number | undefined;
	outputPad: number;
	keyText(id: string): string;
	keyHint(id: string, description: string): string;
}

/**
 * A tool an extension registers with `pi.registerTool` (or `defineTool`): its name, description, parameter schema,
 * `execute` function and optional renderers.
 */
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown, TState = any> {
	name: string;
	label: string;
	description: string;
	/** One line in the system prompt's tool list; tools without one are declared but not listed. */
	promptSnippet?: string;
	/** Rules-section bullets while the tool is active; name the tool explicitly. */
	promptGuidelines?: string[];
	parameters: TParams;
	constrainedSampling?: false | ConstrainedSamplingConfig;
	renderShell?: "default" | "self";
	prepareArguments?: (args: unknown) => Static<TParams>;
	outputSchema?: TSchema;
	exposure?: ToolExposure;
	namespace?: ToolNamespace;
	reachesTools?: (input: Record<string, unknown>) => "all" | readonly string[];
	annotations?: ToolAnnotations;
	defaultActive?: boolean;
	prepareLoadout?: (loadout: ToolLoadout) => ToolLoadoutChanges | undefined;
	executionMode?: "sequential" | "parallel";
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: ExtensionToolContext,
	): Promise<AgentToolResult<TDetails>>;
	renderCall?: (args: Static<TParams>, theme: Theme, context: ToolRenderContext<TState, Static<TParams>>) => Component;
	renderResult?: (
		result: AgentToolResult<TDetails>,
		options: { expanded: boolean; isPartial: boolean },
		theme: Theme,
		context: ToolRenderContext<TState, Static<TParams>>,
	) => Component;
}

/** Any tool definition, whatever its parameter and details types. */
export type AnyToolDefinition = ToolDefinition<any, any, any>;

/** The custom renderers of a tool: its shell, its call line and its result. */
export type ToolRenderers = Pick<AnyToolDefinition, "renderShell" | "renderCall" | "renderResult">;
/**
 * Chooses the renderers for a tool by name; `next()` yields the renderers an earlier resolver or the tool itself
 * would use.
 */
export type ToolRendererResolver = (
	toolName: string,
	next: () => ToolRenderers | undefined,
) => ToolRenderers | undefined;

/** What `pi.getAllTools()` reports per registered tool. */
export interface ToolInfo {
	name: string;
	description: string;
	parameters: TSchema;
	promptGuidelines?: string[];
	exposure: ToolExposure;
	namespace?: ToolNamespace;
	annotations?: ToolAnnotations;
	reachesTools?: (input: Record<string, unknown>) => "all" | readonly string[];
	sourceInfo: SourceInfo;
}

/** Identity function that keeps parameter and details inference for a tool literal. */
export function defineTool<TParams extends TSchema, TDetails = unknown, TState = any>(
	tool: ToolDefinition<TParams, TDetails, TState>,
): ToolDefinition<TParams, TDetails, TState> {
	return tool;
}

/**
 * Narrows a `tool_call` event by tool name. A plain `event.toolName === "bash"` does not narrow because
 * the custom-tool variant's name is `string`.
 */
export function isToolCallEventType<K extends keyof BuiltinToolInputs>(
	toolName: K,
	event: ToolCallEvent,
): event is ToolCallEvent & { toolName: K; input: BuiltinToolInputs[K] };
export function isToolCallEventType<TName extends string, TInput extends Record<string, unknown>>(
	toolName: TName,
	event: ToolCallEvent,
): event is ToolCallEvent & { toolName: TName; input: TInput };
export function isToolCallEventType(toolName: string, event: ToolCallEvent): boolean {
	return event.toolName === toolName;
}

type ToolResultOf<TName extends string, TDetails> = ToolResultEvent & { toolName: TName; details: TDetails };

/** Narrows a `tool_result` event to the built-in bash tool, typing its `details`. */
export function isBashToolResult(event: ToolResultEvent): event is ToolResultOf<"bash", BashToolDetails | undefined> {
	return event.toolName === "bash";
}
/** Narrows a `tool_result` event to the built-in PowerShell tool, typing its `details`. */
export function isPowerShellToolResult(
	event: ToolResultEvent,
): event is ToolResultOf<"powershell", BashToolDetails | undefined> {
	return event.toolName === "powershell";
}
/** Narrows a `tool_result` event to the built-in read tool, typing its `details`. */
export function isReadToolResult(event: ToolResultEvent): event is ToolResultOf<"read", ReadToolDetails | undefined> {
	return event.toolName === "read";
}
/** Narrows a `tool_result` event to the built-in edit tool, typing its `details` (the diff). */
export function isEditToolResult(event: ToolResultEvent): event is ToolResultOf<"edit", EditToolDetails | undefined> {
	return event.toolName === "edit";
}
/** Narrows a `tool_result` event to the built-in write tool. */
export function isWriteToolResult(event: ToolResultEvent): event is ToolResultOf<"write", undefined> {
	return event.toolName === "write";
}
/** Narrows a `tool_result` event to the built-in grep tool, typing its `details`. */
export function isGrepToolResult(event: ToolResultEvent): event is ToolResultOf<"grep", GrepToolDetails | undefined> {
	return event.toolName === "grep";
}
/** Narrows a `tool_result` event to the built-in find tool, typing its `details`. */
export function isFindToolResult(event: ToolResultEvent): event is ToolResultOf<"find", FindToolDetails | undefined> {
	return event.toolName === "find";
}
/** Narrows a `tool_result` event to the built-in ls tool, typing its `details`. */
export function isLsToolResult(event: ToolResultEvent): event is ToolResultOf<"ls", LsToolDetails | undefined> {
	return event.toolName === "ls";
}
