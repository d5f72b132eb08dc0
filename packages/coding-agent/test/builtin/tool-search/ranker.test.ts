import { describe, expect, it } from "vitest";
import { Bm25Ranker, type RankableTool, tokenize } from "../../../src/builtin/tool-search/index.js";

const names = (tools: RankableTool[], query: string, limit = 8) =>
	new Bm25Ranker(tools).rank(query, limit).map((r) => r.name);

describe("tokenize", () => {
	it("splits camelCase and acronyms, drops stop words and stems", () => {
		expect(tokenize("getHTTPServer of the issues")).toEqual(["get", "http", "server", "issue"]);
		expect(tokenize("batches boxes libraries class")).toEqual(["batch", "box", "library", "class"]);
		expect(tokenize("mcp__dev-radius__list_items")).toEqual(["mcp", "dev", "radiu", "list", "item"]);
		expect(tokenize("截图工具 screenshot")).toContain("screenshot");
		expect(tokenize("截图工具").length).toBeGreaterThan(0);
	});
});

describe("Bm25Ranker", () => {
	it("puts the exact name first", () => {
		const tools = [
			{ name: "search_docs", description: "search search search the docs" },
			{ name: "search", description: "generic" },
		];
		expect(names(tools, "search")).toEqual(["search", "search_docs"]);
		expect(
			names(
				[
					{ name: "other", description: "search" },
					{ name: "mcp__github__search", description: "x" },
				],
				"search",
			)[0],
		).toBe("mcp__github__search");
	});

	it("prefers both query words in a description over a tool named after one of them", () => {
		const tools = [
			{ name: "window", description: "Lists open windows of the desktop" },
			{ name: "capture", description: "Take a screenshot of a window" },
		];
		expect(names(tools, "screenshot window")).toEqual(["capture", "window"]);
	});

	it("matches server and tool words of namespaced MCP names", () => {
		const tools = [
			{ name: "mcp__other__app", description: "An app", namespace: { name: "mcp__other" } },
			{ name: "mcp__peekaboo__app", description: "Control an application", namespace: { name: "mcp__peekaboo" } },
			{ name: "mcp__peekaboo__see", description: "Look at the screen", namespace: { name: "mcp__peekaboo" } },
		];
		expect(names(tools, "peekaboo app")[0]).toBe("mcp__peekaboo__app");
	});

	it("stems plurals so issues finds issue and back", () => {
		const tools = [
			{ name: "create_issue", description: "Create an issue" },
			{ name: "list_pulls", description: "List pull requests" },
		];
		expect(names(tools, "issues")).toEqual(["create_issue"]);
		expect(names([{ name: "list_issues", description: "List all issues" }], "issue")).toEqual(["list_issues"]);
	});

	it("matches a Chinese query against a Chinese description", () => {
		const tools = [
			{ name: "translate", description: "翻译文本到其他语言" },
			{ name: "capture", description: "截取屏幕截图" },
		];
		expect(names(tools, "屏幕截图")).toEqual(["capture"]);
	});

	it("returns nothing for stop words only, empty input or a non-positive limit", () => {
		const tools = [{ name: "the_tool", description: "a tool for the things" }];
		expect(names(tools, "the and of")).toEqual([]);
		expect(names(tools, "")).toEqual([]);
		expect(names(tools, "tool", 0)).toEqual([]);
		expect(names([], "tool")).toEqual([]);
	});

	it("searches parameter descriptions and property names, following local refs once", () => {
		const tools = [
			{ name: "a", description: "first" },
			{
				name: "b",
				description: "second",
				parameters: {
					type: "object",
					properties: { repository: { $ref: "#/$defs/repo" } },
					$defs: {
						repo: { type: "object", description: "Owner and name", properties: { owner: { type: "string" } } },
					},
				},
			},
		];
		expect(names(tools, "repository")).toEqual(["b"]);
		expect(names(tools, "owner")).toEqual(["b"]);
	});

	it("keeps input order on ties and honours the limit", () => {
		const tools = [
			{ name: "one", description: "shared word" },
			{ name: "two", description: "shared word" },
			{ name: "three", description: "shared word" },
		];
		expect(names(tools, "shared", 2)).toEqual(["one", "two"]);
	});
});
