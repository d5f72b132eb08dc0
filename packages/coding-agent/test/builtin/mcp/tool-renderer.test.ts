import type { ExtensionAPI, ToolRendererResolver } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { registerMcpToolRenderer } from "../../../src/builtin/mcp/tools/tool-renderer.js";

describe("mcp__* tool renderer", () => {
	it("renders unregistered MCP calls (resumed sessions) and defers to registered renderers", () => {
		let resolver: ToolRendererResolver | undefined;
		registerMcpToolRenderer({
			registerToolRenderer: (r: ToolRendererResolver) => (resolver = r),
		} as unknown as ExtensionAPI);
		const renderers = resolver!("mcp__docs__search", () => undefined);
		const component = renderers!.renderCall!({ query: "x" }, undefined as never, undefined as never);
		expect(component.render(80).join("\n")).toContain('mcp__docs__search {"query":"x"}');
		// Wrapped to the width, one column per character (non-ASCII shown as JSON escapes).
		const wide = renderers!.renderCall!({ query: "ü".repeat(30) }, undefined as never, undefined as never);
		const lines = wide.render(20);
		expect(lines.every((line) => line.length <= 20)).toBe(true);
		expect(lines.join("")).toContain("\\u00fc");
		const own = { renderCall: () => undefined as never };
		expect(resolver!("mcp__docs__search", () => own)).toBe(own);
		expect(resolver!("read", () => undefined)).toBeUndefined();
	});
});
