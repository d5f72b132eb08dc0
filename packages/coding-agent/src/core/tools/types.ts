import type { AgentTool, AgentToolResult, AgentToolUpdateCallback } from "@tau/agent";
import type { ConstrainedSamplingConfig } from "@tau/ai";
import type { Static, TSchema } from "typebox";

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
	constrainedSampling?: ConstrainedSamplingConfig;
	renderShell?: "default" | "self";
	prepareArguments?: (args: unknown) => Static<TParams>;
	promptSnippet: string;
	promptGuidelines?: string[];
	executionMode: "parallel";
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx?: BuiltinToolContext,
	): Promise<AgentToolResult<TDetails>>;
}

/**
 * The agent-facing form, assignable to `AgentTool` from `@tau/agent`; `execute` also accepts the
 * optional tool context (without it the tool uses its construction cwd and no session details).
 */
export interface BuiltinAgentTool<TParams extends TSchema = TSchema, TDetails = unknown>
	extends Omit<AgentTool<TParams, TDetails>, "execute" | "prepareArguments" | "parameters"> {
	parameters: TParams;
	prepareArguments?: (args: unknown) => Static<TParams>;
	executionMode: "parallel";
	promptSnippet?: string;
	promptGuidelines?: string[];
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal?: AbortSignal,
		onUpdate?: AgentToolUpdateCallback<TDetails>,
		ctx?: BuiltinToolContext,
	): Promise<AgentToolResult<TDetails>>;
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
