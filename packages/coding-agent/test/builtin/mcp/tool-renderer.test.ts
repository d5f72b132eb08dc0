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
		const own = { renderCall: () => undefined as never };
		expect(resolver!("mcp__docs__search", () => own)).toBe(own);
		expect(resolver!("read", () => undefined)).toBeUndefined();
	});
});
