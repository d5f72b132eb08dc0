import type { Static, TSchema } from "typebox";

/*
 * Structural shapes of the tool contract (agent.md §1.4, ai.md §1.2/§1.6, extensions.md §10.1),
 * narrowed to what the built-in tools produce and consume. They are structurally compatible with
 * `AgentTool`/`AgentToolResult` from `@tau/agent` so the session can register these tools directly.
 */

export interface ToolTextContent {
	type: "text";
	text: string;
}

export interface ToolImageContent {
	type: "image";
	/** Base64 data without a `data:` prefix. */
	data: string;
	mimeType: string;
}

export type ToolJsonValue = string | number | boolean | null | ToolJsonValue[] | { [key: string]: ToolJsonValue };

export interface ToolResult<TDetails> {
	content: (ToolTextContent | ToolImageContent)[];
	details: TDetails;
	structuredContent?: ToolJsonValue;
	isError?: boolean;
}

export type ToolUpdateCallback<TDetails> = (partial: ToolResult<TDetails>) => void;

export type ConstrainedSampling = { type: "json_schema"; strict: "prefer" | "require" };

/** What a built-in reads from the per-call extension tool context (a subset of `ExtensionToolContext`). */
export interface BuiltinToolContext {
	cwd: string;
	model?:
		| {
				provider: string;
				id: string;
				input?: readonly string[];
				inputLimits?: { images?: { resize?: { maxWidth?: number; maxHeight?: number; maxBytes?: number } } };
		  }
		| undefined;
	thinkingLevel?: string | undefined;
	sessionManager?: { getSessionId(): string; getSessionFile(): string | undefined };
}

/** A full built-in definition: the agent tool plus prompt metadata, executed with an optional context. */
export interface BuiltinToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown> {
	name: string;
	label: string;
	description: string;
	parameters: TParams;
	outputSchema?: TSchema;
	constrainedSampling?: ConstrainedSampling;
	renderShell?: "default" | "self";
	prepareArguments?: (args: unknown) => Static<TParams>;
	promptSnippet: string;
	promptGuidelines?: string[];
	executionMode: "parallel";
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: ToolUpdateCallback<TDetails> | undefined,
		ctx?: BuiltinToolContext,
	): Promise<ToolResult<TDetails>>;
}

/** The agent-facing form (`AgentTool`): no prompt metadata, context optional. */
export interface BuiltinAgentTool<TParams extends TSchema = TSchema, TDetails = unknown> {
	name: string;
	label: string;
	description: string;
	parameters: TParams;
	outputSchema?: TSchema;
	constrainedSampling?: ConstrainedSampling;
	prepareArguments?: (args: unknown) => Static<TParams>;
	executionMode: "parallel";
	promptSnippet?: string;
	promptGuidelines?: string[];
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal?: AbortSignal,
		onUpdate?: ToolUpdateCallback<TDetails>,
		ctx?: BuiltinToolContext,
	): Promise<ToolResult<TDetails>>;
}

export const ABORTED_MESSAGE = "Operation aborted";

/** Rejects with `Operation aborted` when the signal fired (checked before and between steps). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
}

/** Wraps a definition as an agent tool; the prompt metadata stays on the definition. */
export function toAgentTool<TParams extends TSchema, TDetails>(
	definition: BuiltinToolDefinition<TParams, TDetails>,
	keepPromptMetadata = false,
): BuiltinAgentTool<TParams, TDetails> {
	const tool: BuiltinAgentTool<TParams, TDetails> = {
		name: definition.name,
		label: definition.label,
		description: definition.description,
		parameters: definition.parameters,
		executionMode: definition.executionMode,
		execute: (id, params, signal, onUpdate, ctx) => definition.execute(id, params, signal, onUpdate, ctx),
	};
	if (definition.outputSchema) tool.outputSchema = definition.outputSchema;
	if (definition.constrainedSampling) tool.constrainedSampling = definition.constrainedSampling;
	if (definition.prepareArguments) tool.prepareArguments = definition.prepareArguments;
	if (keepPromptMetadata) {
		tool.promptSnippet = definition.promptSnippet;
		if (definition.promptGuidelines) tool.promptGuidelines = definition.promptGuidelines;
	}
	return tool;
}
