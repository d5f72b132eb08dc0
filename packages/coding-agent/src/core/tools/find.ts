import { existsSync } from "node:fs";
import { relative, sep } from "node:path";
import type { Static, TNumber, TObject, TOptional, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import type { FindOperations } from "./operations.js";
import { resolveToolPath } from "./path-resolution.js";
import { awaitLookup, defaultSearchBinaries, fallbackNotice, type SearchBinaryLocator } from "./search/binaries.js";
import { nodeFind, runFd } from "./search/find-files.js";
import { findGitRoot } from "./search/ignore-rules.js";
import { DEFAULT_MAX_BYTES, formatSize, type TruncationResult, truncateHead } from "./truncate.js";
import { type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const findSchema = jsonSchema<
	TObject<{ pattern: TString; path: TOptional<TString>; limit: TOptional<TNumber> }>
>({
	type: "object",
	required: ["pattern"],
	properties: {
		pattern: {
			type: "string",
			description:
				"Glob relative to the search directory, e.g. 'src/**/*.ts'; without '/' (e.g. '*.ts') it matches file names at any depth",
		},
		path: { type: "string", description: "Directory to search in (default: current directory)" },
		limit: { type: "number", description: "Maximum number of results (default: 1000)" },
	},
});
/** The arguments the model passes to the find tool: the glob pattern, the directory and a result limit. */
export type FindToolInput = Static<typeof findSchema>;

/** The `details` of a find tool result: how the output was truncated and whether the result limit was reached. */
export interface FindToolDetails {
	truncation?: TruncationResult;
	resultLimitReached?: number;
}

/** Options of the find tool: a custom file backend and where the fd binary is looked up. */
export interface FindToolOptions {
	/** Custom backend; its `glob` replaces fd. */
	operations?: FindOperations;
	/** Where fd is looked up; a locator that finds nothing forces the built-in search. */
	binaries?: SearchBinaryLocator;
}

export const FIND_FALLBACK_NOTICE = "fd not available; used the slower built-in search";

const DESCRIPTION = `Search for files by glob pattern. Returns matching paths relative to the search directory. Respects .gitignore. Output is truncated to 1000 results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`;

/** Custom glob results relative to the search dir, posix separators, trailing separator kept. */
function relativize(path: string, searchPath: string): string {
	const trailing = path.endsWith("/") || path.endsWith(sep);
	const relativePath = (path.startsWith(searchPath) ? relative(searchPath, path) : path).split(sep).join("/");
	return trailing && !relativePath.endsWith("/") ? `${relativePath}/` : relativePath;
}

/** Creates the definition of the built-in find tool (files by glob pattern) for the given working directory. */
export function createFindToolDefinition(
	cwd: string,
	options: FindToolOptions = {},
): BuiltinToolDefinition<typeof findSchema, FindToolDetails | undefined> {
	const customOps = options.operations;
	return {
		name: "find",
		label: "find",
		description: DESCRIPTION,
		parameters: findSchema,
		promptSnippet: "Find files by glob pattern (respects .gitignore)",
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const searchPath = resolveToolPath(params.path ?? ".", ctx?.cwd || cwd);
			const limit = Math.max(1, Math.floor(params.limit ?? 1000));
			let paths: string[];
			let limitNotice = `${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`;
			let builtInNotice: string | undefined;
			if (customOps) {
				if (!(await customOps.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
				const found = await customOps.glob(params.pattern, searchPath, {
					ignore: ["**/node_modules/**", "**/.git/**"],
					limit: limit + 1,
				});
				paths = found.map((path) => relativize(path, searchPath));
				limitNotice = `${limit} results limit reached`;
			} else {
				if (!existsSync(searchPath)) throw new Error(`Path not found: ${searchPath}`);
				const lookup = (options.binaries ?? defaultSearchBinaries()).locate("fd");
				const { binary: fd, problem } = await awaitLookup(lookup, signal);
				// fd older than 8.7 cannot honour .gitignore outside a repository; the built-in search can.
				if (fd && (fd.supportsNoRequireGit || findGitRoot(searchPath)))
					paths = await runFd(fd, params.pattern, searchPath, limit + 1, signal);
				else {
					paths = await nodeFind(params.pattern, searchPath, limit + 1, signal);
					builtInNotice = fallbackNotice(FIND_FALLBACK_NOTICE, problem);
				}
				paths.sort();
			}
			throwIfAborted(signal);
			if (paths.length === 0)
				return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };

			const details: FindToolDetails = {};
			const notices: string[] = [];
			if (paths.length > limit) {
				paths = paths.slice(0, limit);
				notices.push(limitNotice);
				details.resultLimitReached = limit;
			}
			const truncation = truncateHead(paths.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
			if (truncation.truncated) {
				notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
				details.truncation = truncation;
			}
			if (builtInNotice) notices.push(builtInNotice);
			let text = truncation.content;
			if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
			return { content: [{ type: "text", text }], details: Object.keys(details).length > 0 ? details : undefined };
		},
	};
}

/** Creates the built-in find tool as an agent tool for the given working directory. */
export function createFindTool(cwd: string, options?: FindToolOptions) {
	return toAgentTool(createFindToolDefinition(cwd, options));
}
