import { dirname } from "node:path";
import type { Static, TObject, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import { withFileMutationQueue } from "./mutation-queue.js";
import { localWriteOperations, type WriteOperations } from "./operations.js";
import { resolveToolPath } from "./path-resolution.js";
import { type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const writeSchema = jsonSchema<TObject<{ path: TString; content: TString }>>({
	type: "object",
	required: ["path", "content"],
	properties: {
		path: { type: "string", description: "Path to the file to write (relative or absolute)" },
		content: { type: "string", description: "Content to write to the file" },
	},
});
/** The arguments the model passes to the write tool: the file path and its full content. */
export type WriteToolInput = Static<typeof writeSchema>;

/** Options of the write tool: the file operations it uses. */
export interface WriteToolOptions {
	operations?: WriteOperations;
}

const DESCRIPTION =
	"Write content to a file. Creates the file if it does not exist and overwrites it if it does. Parent directories are created automatically.";

/** Creates the definition of the built-in write tool (create or overwrite a file) for the given working directory. */
export function createWriteToolDefinition(
	cwd: string,
	options: WriteToolOptions = {},
): BuiltinToolDefinition<typeof writeSchema, undefined> {
	const ops = options.operations ?? localWriteOperations;
	return {
		name: "write",
		label: "write",
		description: DESCRIPTION,
		parameters: writeSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		promptSnippet: "Create or overwrite files",
		promptGuidelines: ["Use write only for new files or complete rewrites; use edit for changes to existing files."],
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const absolute = resolveToolPath(params.path, ctx?.cwd || cwd);
			return withFileMutationQueue(absolute, async () => {
				throwIfAborted(signal);
				await ops.mkdir(dirname(absolute));
				throwIfAborted(signal);
				await ops.writeFile(absolute, params.content);
				throwIfAborted(signal);
				// Pi's exact wording (docs/design/tools.md#write), not a byte count.
				return {
					content: [{ type: "text", text: `Successfully wrote to ${params.path}` }],
					details: undefined,
				};
			});
		},
	};
}

/** Creates the built-in write tool as an agent tool for the given working directory. */
export function createWriteTool(cwd: string, options?: WriteToolOptions) {
	return toAgentTool(createWriteToolDefinition(cwd, options));
}
