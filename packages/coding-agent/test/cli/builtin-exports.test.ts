import {
	Bm25Ranker,
	CODEMODE_STORE_ENTRY_TYPE,
	CODEMODE_TOOL_NAME,
	createCodemodeExtension,
	createToolSearchExtension,
	DEFAULT_TOOL_SEARCH_LIMIT,
	readCodemodeStore,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

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
