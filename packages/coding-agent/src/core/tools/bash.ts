import type { Static, TNumber, TObject, TOptional, TSchema, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import type { BashOperations } from "./operations.js";
import { createLocalBashOperations } from "./shell/local-shell.js";
import type { BashToolDetails } from "./shell/run-shell-command.js";
import { executeShellTool, type ShellToolOptions } from "./shell/shell-tool.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./truncate.js";
import { type BuiltinToolDefinition, toAgentTool } from "./types.js";

export const bashSchema = jsonSchema<TObject<{ command: TString; timeout: TOptional<TNumber> }>>({
	type: "object",
	required: ["command"],
	properties: {
		command: { type: "string", description: "Bash command to execute" },
		timeout: { type: "number", description: "Timeout in seconds (optional, no default timeout)" },
	},
});
/** The arguments the model passes to the bash tool: the command and an optional timeout. */
export type BashToolInput = Static<typeof bashSchema>;

export const shellOutputSchema = jsonSchema<TSchema>({
	type: "object",
	required: ["output", "truncated", "exit_code", "wall_time_seconds"],
	properties: {
		output: { type: "string" },
		truncated: { type: "boolean" },
		full_output_path: { type: "string" },
		exit_code: { type: "number" },
		wall_time_seconds: { type: "number" },
	},
});

/**
 * Options of the bash tool: where commands run (`operations`, e.g. a remote shell), the shell to use, and hooks
 * around each command.
 */
export interface BashToolOptions extends ShellToolOptions {
	operations?: BashOperations;
	shellPath?: string;
}

const DESCRIPTION = `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first); when truncated, the full output is saved to a temp file. Optionally provide a timeout in seconds.`;

export const SESSION_VARIABLES_GUIDELINE =
	"The TAU_SESSION_ID, TAU_SESSION_FILE, TAU_PROVIDER, TAU_MODEL and TAU_REASONING_LEVEL environment variables hold the current session and model details; inspect them with bash when needed.";

/**
 * Creates the definition of the built-in bash tool (schema, execution and renderers) for the given working
 * directory.
 */
export function createBashToolDefinition(
	cwd: string,
	options: BashToolOptions = {},
): BuiltinToolDefinition<typeof bashSchema, BashToolDetails | undefined> {
	const ops =
		options.operations ?? createLocalBashOperations(options.shellPath ? { shellPath: options.shellPath } : {});
	const definition: BuiltinToolDefinition<typeof bashSchema, BashToolDetails | undefined> = {
		name: "bash",
		label: "bash",
		description: DESCRIPTION,
		parameters: bashSchema,
		outputSchema: shellOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
		executionMode: "parallel",
		async execute(_id, params, signal, onUpdate, ctx) {
			if (signal?.aborted) throw new Error("Command aborted");
			const request = { command: params.command, timeout: params.timeout, cwd, filePrefix: "tau-bash" };
			return executeShellTool(ops, options, request, signal, onUpdate, ctx);
		},
	};
	if (options.exposeSessionEnvironment !== false) definition.promptGuidelines = [SESSION_VARIABLES_GUIDELINE];
	return definition;
}

/** The agent tool keeps the prompt snippet and guidelines (unlike the other built-ins). */
export function createBashTool(cwd: string, options?: BashToolOptions) {
	return toAgentTool(createBashToolDefinition(cwd, options), true);
}
