import { describe, expect, it } from "vitest";
import { mcpStatusText } from "../../../src/builtin/mcp/command/mcp-command.js";
import type { McpServerEntry } from "../../../src/builtin/mcp/config/load-config.js";
import type { McpSession } from "../../../src/builtin/mcp/mcp-session.js";

function entry(name: string, enabled = true): McpServerEntry {
	return {
		name,
		namespace: `mcp__${name}`,
		transport: "stdio",
		config: { command: "x" },
		scope: "user",
		source: "/u/mcp.json",
		enabled,
	};
}

describe("/mcp status", () => {
	it("lists servers by attention: needs sign-in, failed, disconnected, connecting, connected, disabled", () => {
		const states: Record<string, string> = {
			a: "connected",
			b: "failed",
			c: "needs-auth",
			d: "disconnected",
			e: "connecting",
		};
		const session = {
			config: {
				servers: [...Object.keys(states).map((name) => entry(name)), entry("f", false)],
				errors: ["bad entry"],
				autoEnableCodemode: true,
			},
			connections: new Map(
				Object.entries(states).map(([name, state]) => [
					name,
					{ state, tools: [{ name: "t" }], error: state === "failed" ? "spawn ENOENT\nmore" : undefined },
				]),
			),
		} as unknown as McpSession;
		const lines = mcpStatusText(session).split("\n");
		expect(lines.filter((line) => !line.startsWith("    ")).map((line) => line.split(":")[0])).toEqual([
			"c",
			"b",
			"d",
			"e",
			"a",
			"f",
			"config error",
		]);
		expect(lines).toContain("    spawn ENOENT");
		expect(lines[0]).toBe("c: needs-auth, 1 tools, exposure codemode, /u/mcp.json");
		expect(mcpStatusText(undefined)).toBe("No MCP servers configured.");
	});
});
