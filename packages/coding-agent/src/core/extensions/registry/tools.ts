import type { AgentTool, AgentToolResult } from "@tau/agent";
import type { ExtensionToolContext, ToolDefinition, ToolExposure } from "../api/tool-definition.js";
import type { Extension, RegisteredTool } from "../runtime/extension.js";

/** Tools of all extensions; the first extension in load order wins a name (conflicts are load errors). */
export function resolveExtensionTools(extensions: readonly Extension[]): RegisteredTool[] {
	const tools = new Map<string, RegisteredTool>();
	for (const extension of extensions) {
		for (const tool of extension.tools.values()) {
			if (!tools.has(tool.definition.name)) tools.set(tool.definition.name, tool);
		}
	}
	return [...tools.values()];
}

export function exposureOf(definition: Pick<ToolDefinition, "exposure">): ToolExposure {
	return definition.exposure ?? "direct";
}

/** One line: whitespace runs collapse, empty means no snippet. */
export function normalizePromptSnippet(snippet: string | undefined): string | undefined {
	const line = snippet?.replace(/\s+/g, " ").trim();
	return line ? line : undefined;
}

/** Trimmed, non-empty, without duplicates. */
export function normalizePromptGuidelines(guidelines: readonly string[] | undefined): string[] {
	return [...new Set((guidelines ?? []).map((line) => line.trim()).filter((line) => line !== ""))];
}

/**
 * The agent-facing form of a definition: `execute` receives the per-call `ExtensionToolContext`
 * built by `createContext(toolCallId, signal)`.
 */
export function toAgentTool(
	definition: ToolDefinition<any, any, any>,
	createContext: (toolCallId: string, signal: AbortSignal | undefined) => ExtensionToolContext,
): AgentTool<any> {
	const tool: AgentTool<any> = {
		name: definition.name,
		label: definition.label,
		description: definition.description,
		parameters: definition.parameters,
		execute: (toolCallId, params, signal, onUpdate): Promise<AgentToolResult<any>> =>
			definition.execute(toolCallId, params, signal, onUpdate, createContext(toolCallId, signal)),
	};
	if (definition.prepareArguments) tool.prepareArguments = definition.prepareArguments;
	if (definition.outputSchema) tool.outputSchema = definition.outputSchema;
	if (definition.executionMode) tool.executionMode = definition.executionMode;
	if (definition.constrainedSampling) tool.constrainedSampling = definition.constrainedSampling;
	return tool;
}

/** What builds each call's `ctx`: the `ExtensionRunner` (named by shape, the runner imports this module). */
export interface ToolContextFactory {
	createToolContext(toolCallId: string, signal: AbortSignal | undefined): ExtensionToolContext;
}

/** A registered extension tool as an agent tool whose calls get their `ctx` from `runner`. */
export function wrapRegisteredTool(registeredTool: RegisteredTool, runner: ToolContextFactory): AgentTool<any> {
	return toAgentTool(registeredTool.definition, (toolCallId, signal) => runner.createToolContext(toolCallId, signal));
}

/** Turns the tools extensions registered into agent tools whose `execute` receives the extension tool context. */
export function wrapRegisteredTools(
	registeredTools: readonly RegisteredTool[],
	runner: ToolContextFactory,
): AgentTool<any>[] {
	return registeredTools.map((registeredTool) => wrapRegisteredTool(registeredTool, runner));
}
