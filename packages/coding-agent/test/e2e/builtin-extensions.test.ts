import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, REPO_ROOT, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

const SCRIPTED_MCP_SERVER = join(REPO_ROOT, "packages/coding-agent/test/builtin/mcp/fixtures/scripted-server.mjs");

/** A user mcp.json naming the scripted stdio server with its tools declared directly. */
function writeUserMcpConfig(box: Sandbox): void {
	const server = { command: process.execPath, args: [SCRIPTED_MCP_SERVER], exposure: "direct" };
	writeFileSync(join(box.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { scripted: server } }));
}

function declaredTools(body: unknown): string[] {
	return ((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
}

describe.skipIf(!cliBuilt)("built-in extensions at the CLI boundary (built CLI)", () => {
	it("--tools +codemode,+tool_search declares both built-in tools to the provider", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "ok" });
		const result = await runCli(box, ["--tools", "+codemode,+tool_search", "-p", "hi"]);
		expect(result).toMatchObject({ code: 0, stdout: "ok\n" });
		const tools = declaredTools(server.requests[0]!.body);
		expect(tools).toContain("codemode");
		expect(tools).toContain("tool_search");
		expect(tools).toContain("read");
	});

	it("the built-in tools are inactive by default and absent with -ne", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "plain" });
		server.enqueue({ text: "none" });
		expect((await runCli(box, ["-p", "hi"])).code).toBe(0);
		expect(declaredTools(server.requests[0]!.body)).not.toContain("codemode");
		const disabled = await runCli(box, ["-ne", "--tools", "+codemode", "-p", "hi"]);
		expect(disabled.code).toBe(0);
		expect(declaredTools(server.requests[1]!.body)).not.toContain("codemode");
	});

	it("a stdio server in the user mcp.json declares its mcp__ tools; --no-mcp declares none", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeUserMcpConfig(box);
		server.enqueue({ text: "with" });
		server.enqueue({ text: "without" });
		expect(await runCli(box, ["-p", "hi"])).toMatchObject({ code: 0, stdout: "with\n" });
		const tools = declaredTools(server.requests[0]!.body);
		expect(tools).toContain("mcp__scripted__alpha");
		expect(tools).toContain("read");
		expect(await runCli(box, ["--no-mcp", "-p", "hi"])).toMatchObject({ code: 0, stdout: "without\n" });
		const plain = declaredTools(server.requests[1]!.body);
		expect(plain.filter((name) => name.startsWith("mcp__"))).toEqual([]);
		expect(plain).toContain("read");
	});
});
