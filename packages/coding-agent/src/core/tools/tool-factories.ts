import { type BashToolOptions, createBashToolDefinition } from "./bash.js";
import { createEditToolDefinition, type EditToolOptions } from "./edit.js";
import { createFindToolDefinition, type FindToolOptions } from "./find.js";
import { createGrepToolDefinition, type GrepToolOptions } from "./grep.js";
import { createLsToolDefinition, type LsToolOptions } from "./ls.js";
import { createPowerShellToolDefinition, type PowerShellToolOptions } from "./powershell.js";
import { createReadToolDefinition, type ReadToolOptions } from "./read.js";
import type { BuiltinAgentTool, BuiltinToolDefinition } from "./types.js";
import { toAgentTool } from "./types.js";
import { createWriteToolDefinition, type WriteToolOptions } from "./write.js";

export type ToolName = "read" | "bash" | "powershell" | "edit" | "write" | "grep" | "find" | "ls";

export const allToolNames: ReadonlySet<ToolName> = new Set<ToolName>([
	"read",
	"bash",
	"powershell",
	"edit",
	"write",
	"grep",
	"find",
	"ls",
]);

/** Options for creating several built-in tools at once, one entry per tool. */
export interface ToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	powershell?: PowerShellToolOptions;
	write?: WriteToolOptions;
	edit?: EditToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
}

/** Any built-in definition: the collections below mix parameter and detail types. */
export type AnyBuiltinToolDefinition = BuiltinToolDefinition<any, any>;
export type AnyBuiltinAgentTool = BuiltinAgentTool<any, any>;

export function createToolDefinition(
	name: ToolName,
	cwd: string,
	options: ToolsOptions = {},
): AnyBuiltinToolDefinition {
	switch (name) {
		case "read":
			return createReadToolDefinition(cwd, options.read);
		case "bash":
			return createBashToolDefinition(cwd, options.bash);
		case "powershell":
			return createPowerShellToolDefinition(cwd, options.powershell);
		case "edit":
			return createEditToolDefinition(cwd, options.edit);
		case "write":
			return createWriteToolDefinition(cwd, options.write);
		case "grep":
			return createGrepToolDefinition(cwd, options.grep);
		case "find":
			return createFindToolDefinition(cwd, options.find);
		case "ls":
			return createLsToolDefinition(cwd, options.ls);
		default:
			throw new Error(`Unknown tool name: ${name as string}`);
	}
}

/** Shell tools keep their prompt metadata on the agent tool; the others do not. */
export function createTool(name: ToolName, cwd: string, options?: ToolsOptions): AnyBuiltinAgentTool {
	return toAgentTool(createToolDefinition(name, cwd, options), name === "bash" || name === "powershell");
}

const CODING_TOOLS: ToolName[] = ["read", "bash", "edit", "write"];
const READ_ONLY_TOOLS: ToolName[] = ["read", "grep", "find", "ls"];

export function createCodingToolDefinitions(cwd: string, options?: ToolsOptions): AnyBuiltinToolDefinition[] {
	return CODING_TOOLS.map((name) => createToolDefinition(name, cwd, options));
}

/** Creates the default coding tools (read, bash, edit, write) as agent tools for the given working directory. */
export function createCodingTools(cwd: string, options?: ToolsOptions): AnyBuiltinAgentTool[] {
	return CODING_TOOLS.map((name) => createTool(name, cwd, options));
}

export function createReadOnlyToolDefinitions(cwd: string, options?: ToolsOptions): AnyBuiltinToolDefinition[] {
	return READ_ONLY_TOOLS.map((name) => createToolDefinition(name, cwd, options));
}

/** Creates the read-only built-in tools (read, grep, find, ls) as agent tools for the given working directory. */
export function createReadOnlyTools(cwd: string, options?: ToolsOptions): AnyBuiltinAgentTool[] {
	return READ_ONLY_TOOLS.map((name) => createTool(name, cwd, options));
}

export function createAllToolDefinitions(
	cwd: string,
	options?: ToolsOptions,
): Record<ToolName, AnyBuiltinToolDefinition> {
	return Object.fromEntries(
		[...allToolNames].map((name) => [name, createToolDefinition(name, cwd, options)]),
	) as Record<ToolName, AnyBuiltinToolDefinition>;
}

/** Creates every built-in tool as an agent tool for the given working directory, keyed by tool name. */
export function createAllTools(cwd: string, options?: ToolsOptions): Record<ToolName, AnyBuiltinAgentTool> {
	return Object.fromEntries([...allToolNames].map((name) => [name, createTool(name, cwd, options)])) as Record<
		ToolName,
		AnyBuiltinAgentTool
	>;
}
