import { bashSchema, SESSION_VARIABLES_GUIDELINE, shellOutputSchema } from "./bash.js";
import type { PowerShellOperations } from "./operations.js";
import { createLocalPowerShellOperations } from "./shell/local-shell.js";
import type { BashToolDetails } from "./shell/run-shell-command.js";
import { executeShellTool, type ShellToolOptions } from "./shell/shell-tool.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./truncate.js";
import { type BuiltinToolDefinition, toAgentTool } from "./types.js";

/** Options of the PowerShell tool: where commands run (`operations`) and hooks around each command. */
export interface PowerShellToolOptions extends ShellToolOptions {
	operations?: PowerShellOperations;
}

const DESCRIPTION = `Execute a PowerShell command in the current working directory (Windows only). Returns stdout and stderr. Output is truncated to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first); when truncated, the full output is saved to a temp file. Optionally provide a timeout in seconds.`;

/** Registered everywhere so extensions can reference it; executes only on Windows. */
export function createPowerShellToolDefinition(
	cwd: string,
	options: PowerShellToolOptions = {},
): BuiltinToolDefinition<typeof bashSchema, BashToolDetails | undefined> {
	const definition: BuiltinToolDefinition<typeof bashSchema, BashToolDetails | undefined> = {
		name: "powershell",
		label: "powershell",
		description: DESCRIPTION,
		parameters: bashSchema,
		outputSchema: shellOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		promptSnippet: "Execute PowerShell commands",
		executionMode: "parallel",
		async execute(_id, params, signal, onUpdate, ctx) {
			if (signal?.aborted) throw new Error("Command aborted");
			if (process.platform !== "win32") throw new Error("The powershell tool is only available on Windows.");
			const ops = options.operations ?? createLocalPowerShellOperations();
			const request = { command: params.command, timeout: params.timeout, cwd, filePrefix: "tau-powershell" };
			return executeShellTool(ops, options, request, signal, onUpdate, ctx);
		},
	};
	if (options.exposeSessionEnvironment !== false) definition.promptGuidelines = [SESSION_VARIABLES_GUIDELINE];
	return definition;
}

/** Creates the built-in PowerShell tool as an agent tool for the given working directory. */
export function createPowerShellTool(cwd: string, options?: PowerShellToolOptions) {
	return toAgentTool(createPowerShellToolDefinition(cwd, options), true);
}
