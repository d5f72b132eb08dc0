import type { Static, TBoolean, TNumber, TObject, TOptional, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import { type GrepOperations, localGrepOperations } from "./operations.js";
import { resolveToolPath } from "./path-resolution.js";
import { awaitLookup, defaultSearchBinaries, fallbackNotice, type SearchBinaryLocator } from "./search/binaries.js";
import { GrepCollector, type GrepToolDetails } from "./search/grep-output.js";
import { type GrepQuery, nodeGrep } from "./search/node-grep.js";
import { runRipgrep } from "./search/ripgrep.js";
import { DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH } from "./truncate.js";
import { type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const grepSchema = jsonSchema<
	TObject<{
		pattern: TString;
		path: TOptional<TString>;
		glob: TOptional<TString>;
		ignoreCase: TOptional<TBoolean>;
		literal: TOptional<TBoolean>;
		context: TOptional<TNumber>;
		limit: TOptional<TNumber>;
	}>
>({
	type: "object",
	required: ["pattern"],
	properties: {
		pattern: { type: "string", description: "Search pattern (regex or literal string)" },
		path: { type: "string", description: "Directory or file to search (default: current directory)" },
		glob: {
			type: "string",
			description:
				"Filter files by glob relative to path, e.g. 'src/**/*.ts'; without '/' (e.g. '*.ts') it matches file names at any depth",
		},
		ignoreCase: { type: "boolean", description: "Case-insensitive search (default: false)" },
		literal: { type: "boolean", description: "Treat pattern as a literal string instead of regex (default: false)" },
		context: { type: "number", description: "Lines to show before and after each match (default: 0)" },
		limit: { type: "number", description: "Maximum number of matches to return (default: 100)" },
	},
});
/** The arguments the model passes to the grep tool: the pattern, where to search, filters and a match limit. */
export type GrepToolInput = Static<typeof grepSchema>;
export type { GrepToolDetails };

/** Options of the grep tool: its file operations and where the ripgrep binary is looked up. */
export interface GrepToolOptions {
	operations?: GrepOperations;
	/** Where ripgrep is looked up; a locator that finds nothing forces the built-in search. */
	binaries?: SearchBinaryLocator;
}

/** Appended when the built-in search stood in for ripgrep (with the download problem, if any, in parentheses). */
export const GREP_FALLBACK_NOTICE = "ripgrep not available; used the slower built-in search";

const DESCRIPTION = `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to 100 matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first); long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`;

function contextLines(context: number | undefined): number {
	if (context === undefined || !(context > 0)) return 0;
	return Math.min(Math.floor(context), Number.MAX_SAFE_INTEGER);
}

/** Creates the definition of the built-in grep tool (file contents by pattern) for the given working directory. */
export function createGrepToolDefinition(
	cwd: string,
	options: GrepToolOptions = {},
): BuiltinToolDefinition<typeof grepSchema, GrepToolDetails | undefined> {
	const ops = options.operations ?? localGrepOperations;
	return {
		name: "grep",
		label: "grep",
		description: DESCRIPTION,
		parameters: grepSchema,
		promptSnippet: "Search file contents for patterns (respects .gitignore)",
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const searchPath = resolveToolPath(params.path ?? ".", ctx?.cwd || cwd);
			let isDirectory: boolean;
			try {
				isDirectory = await ops.isDirectory(searchPath);
			} catch {
				throw new Error(`Path not found: ${searchPath}`);
			}
			throwIfAborted(signal);
			const query: GrepQuery = {
				pattern: params.pattern,
				ignoreCase: params.ignoreCase ?? false,
				literal: params.literal ?? false,
				context: contextLines(params.context),
				...(params.glob ? { glob: params.glob } : {}),
			};
			const collector = new GrepCollector(Math.max(1, Math.floor(params.limit ?? 100)), query.context);
			const lookup = (options.binaries ?? defaultSearchBinaries()).locate("rg");
			const { binary: ripgrep, problem } = await awaitLookup(lookup, signal);
			if (ripgrep) await runRipgrep(ripgrep, searchPath, isDirectory, query, collector, signal);
			else await nodeGrep(searchPath, isDirectory, query, collector, signal);
			throwIfAborted(signal);
			const { text, details } = collector.render(
				ripgrep || collector.matchCount === 0 ? undefined : fallbackNotice(GREP_FALLBACK_NOTICE, problem),
			);
			return { content: [{ type: "text", text }], details };
		},
	};
}

/** Creates the built-in grep tool as an agent tool for the given working directory. */
export function createGrepTool(cwd: string, options?: GrepToolOptions) {
	return toAgentTool(createGrepToolDefinition(cwd, options));
}
