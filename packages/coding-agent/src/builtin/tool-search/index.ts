export { Bm25Ranker, type RankableTool, type RankedTool } from "./bm25-ranker.js";
export { tokenize } from "./tokenize.js";
export {
	createToolSearchExtension,
	DEFAULT_TOOL_SEARCH_LIMIT,
	searchCandidates,
	TOOL_SEARCH_TOOL_NAME,
	type ToolSearchDetails,
} from "./tool-search-extension.js";
