import { join } from "node:path";
import type { Static, TNumber, TObject, TOptional, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import { type LsOperations, localLsOperations } from "./operations.js";
import { resolveToolPath } from "./path-resolution.js";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const lsSchema = jsonSchema<TObject<{ path: TOptional<TString>; limit: TOptional<TNumber> }>>({
	type: "object",
	properties: {
		path: { type: "string", description: "Directory to list (default: current directory)" },
		limit: { type: "number", description: "Maximum number of entries to return (default: 500)" },
	},
});
/** The arguments the model passes to the ls tool: the directory and an entry limit. */
export type LsToolInput = Static<typeof lsSchema>;

/** The `details` of an ls tool result: how the output was truncated and whether the entry limit was reached. */
export interface LsToolDetails {
	truncation?: TruncationResult;
	entryLimitReached?: number;
}

/** Options of the ls tool: the file operations it uses. */
export interface LsToolOptions {
	operations?: LsOperations;
}

const DESCRIPTION = `List directory contents. Entries are sorted alphabetically, directories end with '/', dotfiles are included. Output is truncated to 500 entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`;

/** Creates the definition of the built-in ls tool (directory listing) for the given working directory. */
export function createLsToolDefinition(
	cwd: string,
	options: LsToolOptions = {},
): BuiltinToolDefinition<typeof lsSchema, LsToolDetails | undefined> {
	const ops = options.operations ?? localLsOperations;
	return {
		name: "ls",
		label: "ls",
		description: DESCRIPTION,
		parameters: lsSchema,
		promptSnippet: "List directory contents",
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const directory = resolveToolPath(params.path ?? ".", ctx?.cwd || cwd);
			const limit = Math.max(1, Math.floor(params.limit ?? 500));
			if (!(await ops.exists(directory))) throw new Error(`Path not found: ${directory}`);
			if (!(await ops.stat(directory)).isDirectory()) throw new Error(`Not a directory: ${directory}`);
			let names: string[];
			try {
				names = await ops.readdir(directory);
			} catch (error) {
				throw new Error(`Cannot read directory: ${(error as Error).message}`);
			}
			throwIfAborted(signal);
			names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

			const entries: string[] = [];
			let limitReached = false;
			for (const name of names) {
				if (entries.length >= limit) {
					limitReached = true;
					break;
				}
				try {
					const stat = await ops.stat(join(directory, name));
					entries.push(stat.isDirectory() ? `${name}/` : name);
				} catch {
					// Entries that cannot be stat'ed (dangling links, races) are skipped and not counted.
				}
			}
			throwIfAborted(signal);
			if (entries.length === 0)
				return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

			const details: LsToolDetails = {};
			const notices: string[] = [];
			if (limitReached) {
				notices.push(`${limit} entries limit reached. Use limit=${limit * 2} for more`);
				details.entryLimitReached = limit;
			}
			const truncation = truncateHead(entries.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			if (truncation.truncated) {
				notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
				details.truncation = truncation;
			}
			let text = truncation.content;
			if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
			return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
		},
	};
}

/** Creates the built-in ls tool as an agent tool for the given working directory. */
export function createLsTool(cwd: string, options?: LsToolOptions) {
	return toAgentTool(createLsToolDefinition(cwd, options));
}
