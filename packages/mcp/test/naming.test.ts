import { createMcpToolName, mcpNamespace, mcpServerSummary, normalizeMcpInputSchema } from "@tau/mcp";
import { describe, expect, it } from "vitest";

describe("MCP tool naming", () => {
	it("uses plain identifiers when they fit", () => {
		const names = createMcpToolName("my-server", ["get-file", "list"], new Map());
		expect(names.get("get-file")).toBe("mcp__my_server__get_file");
		expect(mcpNamespace("my-server")).toBe("mcp__my_server");
	});

	it("hashes both colliding names regardless of list order", () => {
		const forward = createMcpToolName("s", ["a-b", "a_b"], new Map());
		const backward = createMcpToolName("s", ["a_b", "a-b"], new Map());
		expect(forward.get("a-b")).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
		expect(forward.get("a_b")).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
		expect(forward.get("a-b")).not.toBe(forward.get("a_b"));
		expect(backward).toEqual(forward);
	});

	it("cuts a long name to 64 chars ending in _<8 hex>", () => {
		const tool = "t".repeat(70);
		const name = createMcpToolName("srv", [tool], new Map()).get(tool)!;
		expect(name).toHaveLength(64);
		expect(name).toMatch(/_[0-9a-f]{8}$/);
	});

	it("keeps names stable across re-listings with shared ownership", () => {
		const owners = new Map<string, string>();
		const first = createMcpToolName("s", ["x", "y"], owners);
		const second = createMcpToolName("s", ["y", "z", "x"], owners);
		expect(second.get("x")).toBe(first.get("x"));
		expect(second.get("y")).toBe(first.get("y"));
		// A different owner of an existing plain name gets a hash.
		createMcpToolName("a", ["b__c"], owners);
		const other = createMcpToolName("a__b", ["c"], owners);
		expect(other.get("c")).toMatch(/^mcp__a__b__c_[0-9a-f]{8}$/);
	});
});

describe("helpers", () => {
	it("summarizes from description, then instructions", () => {
		expect(mcpServerSummary("  Docs search\nmore", "ignored")).toBe("Docs search");
		expect(mcpServerSummary(undefined, "\nUse for tickets.\nDetails")).toBe("Use for tickets.");
		expect(mcpServerSummary("", undefined)).toBe("");
	});

	it("normalizes input schemas", () => {
		expect(normalizeMcpInputSchema({})).toEqual({ type: "object", properties: {} });
		expect(normalizeMcpInputSchema({ type: "object", properties: { a: {} }, required: ["a"] })).toEqual({
			type: "object",
			properties: { a: {} },
			required: ["a"],
		});
	});
});
