import type { CodemodeTool } from "@tau/codemode";
import { toCodemodeIdentifier } from "@tau/codemode/declarations";
import { Bm25Ranker } from "../tool-search/bm25-ranker.js";
import { type ScriptToolInfo, toolSample } from "./samples.js";

const DEFAULT_SEARCH_LIMIT = 8;

function namespaceMatches(tool: ScriptToolInfo, wanted: string): boolean {
	const ns = tool.namespace;
	if (!ns) return false;
	const key = toCodemodeIdentifier(wanted);
	return [ns.name, ...(ns.aliases ?? [])].some((name) => name === wanted || toCodemodeIdentifier(name) === key);
}

function findTool(tools: readonly ScriptToolInfo[], name: unknown): ScriptToolInfo | undefined {
	if (typeof name !== "string") return undefined;
	return tools.find((t) => t.name === name) ?? tools.find((t) => t.jsName === name);
}

/** `searchTools`, `describeTool` and `describeNamespace` over the callable tools (spread globals). */
export function discoveryGlobals(tools: readonly ScriptToolInfo[]): CodemodeTool[] {
	return [
		{
			name: "searchTools",
			spread: true,
			description: "Ranks callable tools (including unlisted ones such as MCP tools) by a keyword query.",
			signature:
				"(query: string, options?: { limit?: number; namespace?: string }): Promise<{ name: string; description: string }[]>",
			execute: (args) => {
				const [query, options] = args as [unknown, unknown];
				if (typeof query !== "string" || query.trim() === "")
					throw new Error("searchTools(query): query must be a non-empty string");
				const opts = (options ?? {}) as { limit?: unknown; namespace?: unknown };
				if (options !== undefined && options !== null && typeof options !== "object") {
					throw new Error("searchTools(query, options): options must be an object");
				}
				const limit = opts.limit ?? DEFAULT_SEARCH_LIMIT;
				if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0) {
					throw new Error("searchTools: limit must be a positive integer");
				}
				if (opts.namespace !== undefined && typeof opts.namespace !== "string") {
					throw new Error("searchTools: namespace must be a string");
				}
				const pool =
					opts.namespace === undefined
						? tools
						: tools.filter((t) => namespaceMatches(t, opts.namespace as string));
				const ranked = new Bm25Ranker(pool).rank(query, limit);
				const byName = new Map(pool.map((t) => [t.name, t]));
				return ranked.map(({ name }) => {
					const tool = byName.get(name)!;
					return { name: tool.jsName, description: toolSample(tool) };
				});
			},
		},
		{
			name: "describeTool",
			description: "The declaration and description of one tool, by raw name or identifier.",
			signature: "(name: string): Promise<string | undefined>",
			spread: true,
			execute: (args) => {
				const tool = findTool(tools, (args as unknown[])[0]);
				return tool ? toolSample(tool) : undefined;
			},
		},
		{
			name: "describeNamespace",
			description: "A namespace's description, server instructions and tool identifiers.",
			signature:
				"(name: string): Promise<{ name: string; description?: string; instructions?: string; tools: string[] } | undefined>",
			spread: true,
			execute: (args) => {
				const wanted = (args as unknown[])[0];
				if (typeof wanted !== "string") return undefined;
				const members = tools.filter((t) => namespaceMatches(t, wanted));
				const ns = members[0]?.namespace;
				if (!ns) return undefined;
				return {
					name: ns.name,
					...(ns.description ? { description: ns.description } : {}),
					...(ns.instructions ? { instructions: ns.instructions } : {}),
					tools: members.map((t) => t.jsName),
				};
			},
		},
	];
}
