import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";

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
});
