import type { TNumber, TObject, TOptional, TString } from "typebox";
import type { ExtensionAPI, ExtensionFactory } from "../../core/extensions/api/extension-api.js";
import type { ToolInfo } from "../../core/extensions/api/tool-definition.js";
import { jsonSchema } from "../../core/tools/json-schema.js";
import { Bm25Ranker } from "./bm25-ranker.js";

export const TOOL_SEARCH_TOOL_NAME = "tool_search";
export const DEFAULT_TOOL_SEARCH_LIMIT = 8;

export interface ToolSearchDetails {
	loaded: string[];
}

// Static on purpose: it never lists tools or namespaces, so it stays byte-identical while MCP
// servers connect and their tools register.
const DESCRIPTION = [
	"Search the metadata of deferred tools with BM25 and load the matches: loaded tools are declared to you from your next call on.",
	"Some tools (for example MCP server tools) are not provided upfront; always discover MCP tools through tool_search.",
	"Use a few keywords describing the capability you need; `limit` caps how many tools are loaded (default 8).",
].join(" ");

function firstLine(text: string): string {
	return text.trim().split(/\r?\n/, 1)[0] ?? "";
}

function failure(text: string) {
	return { content: [{ type: "text" as const, text }], details: { loaded: [] }, isError: true };
}

/** Tools `tool_search` may load: registered `codemode`/`deferred` tools that are not active. */
export function searchCandidates(pi: ExtensionAPI): ToolInfo[] {
	const active = new Set(pi.getActiveTools());
	return pi
		.getAllTools()
		.filter((tool) => (tool.exposure === "codemode" || tool.exposure === "deferred") && !active.has(tool.name));
}

/** The built-in `tool_search` extension (`builtin:tool-search`). */
export function createToolSearchExtension(): ExtensionFactory {
	return (pi: ExtensionAPI) => {
		pi.registerTool({
			name: TOOL_SEARCH_TOOL_NAME,
			label: "Tool search",
			description: DESCRIPTION,
			promptSnippet: "find and load tools that are not declared upfront (such as MCP tools)",
			parameters: jsonSchema<TObject<{ query: TString; limit: TOptional<TNumber> }>>({
				type: "object",
				required: ["query"],
				properties: {
					query: { type: "string", description: "Keywords describing the capability you need" },
					limit: { type: "number", description: "How many tools to load at most (default 8)" },
				},
			}),
			exposure: "model-only",
			defaultActive: false,
			reachesTools: () => "all",
			async execute(_id, params) {
				const query = params.query;
				const limit = params.limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
				if (typeof query !== "string" || query.trim() === "") return failure("query must be a non-empty string");
				if (!Number.isInteger(limit) || limit <= 0) return failure("limit must be a positive integer");
				const candidates = searchCandidates(pi);
				const ranked = new Bm25Ranker(candidates).rank(query, limit);
				const loaded = ranked.map((r) => r.name);
				if (loaded.length === 0) {
					return {
						content: [{ type: "text", text: `No matching tools found for "${query}".` }],
						details: { loaded },
					};
				}
				pi.setActiveTools([...pi.getActiveTools(), ...loaded]);
				const byName = new Map(candidates.map((tool) => [tool.name, tool]));
				const lines = loaded.map((name) => `- ${name}: ${firstLine(byName.get(name)?.description ?? "")}`);
				const header = `Loaded ${loaded.length} tool(s); they are available from your next call:`;
				return { content: [{ type: "text", text: [header, ...lines].join("\n") }], details: { loaded } };
			},
		});
	};
}
