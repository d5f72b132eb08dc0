import { describe, expect, it } from "vitest";
import {
	type McpStatusView,
	mcpStatusText,
	startupProblemsText,
} from "../../../src/builtin/mcp/command/server-status.js";
import type { McpServerEntry } from "../../../src/builtin/mcp/config/load-config.js";

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
		const view = {
			config: {
				servers: [...Object.keys(states).map((name) => entry(name)), entry("f", false)],
				errors: ["bad entry"],
				autoEnableCodemode: true,
			},
			connections: new Map(
				Object.entries(states).map(([name, state]) => [
					name,
					{
						state,
						tools: [{ name: "t" }],
						error:
							state === "failed"
								? "MCP connection closed: the server exited with code 3\nnpm error 404\nFatal: no DB"
								: undefined,
					},
				]),
			),
			started: true,
		} as unknown as McpStatusView;
		const lines = mcpStatusText(view).split("\n");
		expect(lines.filter((line) => !line.startsWith("    ")).map((line) => line.split(":")[0])).toEqual([
			"c",
			"b",
			"d",
			"e",
			"a",
			"f",
			"config error",
		]);
		// The whole failure reason: the exit code and the server's own stderr, not only "connection closed".
		expect(lines).toContain("    MCP connection closed: the server exited with code 3");
		expect(lines).toContain("    Fatal: no DB");
		expect(lines[0]).toBe("c: needs sign-in, exposure codemode, /u/mcp.json");
		expect(lines).toContain("a: connected, 1 tool, exposure codemode, /u/mcp.json");
		expect(mcpStatusText(undefined)).toBe("No MCP servers configured.");
		const notice = startupProblemsText(view)!;
		expect(notice).toContain(
			"  b: failed: MCP connection closed: the server exited with code 3\n    npm error 404\n    Fatal: no DB",
		);
		expect(notice).toContain("  config: bad entry");
		expect(notice).not.toContain("  a:");
	});
});
