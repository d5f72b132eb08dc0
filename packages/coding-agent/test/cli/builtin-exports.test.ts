import { createCodemodeExtension, createToolSearchExtension } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { CODEMODE_STORE_ENTRY_TYPE, CODEMODE_TOOL_NAME, readCodemodeStore } from "../../src/builtin/codemode/index.js";
import { Bm25Ranker, DEFAULT_TOOL_SEARCH_LIMIT } from "../../src/builtin/tool-search/index.js";

describe("built-in extension exports", () => {
	it("the package root exposes the code mode and tool search built-ins for SDK hosts", () => {
		expect(typeof createCodemodeExtension()).toBe("function");
		expect(typeof createToolSearchExtension()).toBe("function");
		expect(CODEMODE_TOOL_NAME).toBe("codemode");
		expect(typeof CODEMODE_STORE_ENTRY_TYPE).toBe("string");
		expect(typeof readCodemodeStore).toBe("function");
		expect(typeof Bm25Ranker).toBe("function");
		expect(DEFAULT_TOOL_SEARCH_LIMIT).toBeGreaterThan(0);
	});
});
