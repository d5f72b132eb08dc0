import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

/** An extension whose virtual model `router/auto` routes every request to the mock model. */
function writeRouter(box: Sandbox): string {
	const path = join(box.home, "router.js");
	writeFileSync(
		path,
		`module.exports = function (pi) {
	pi.registerVirtualModel({
		provider: "router",
		id: "auto",
		name: "Auto",
		contextWindow: 64000,
		route: (request, ctx) => ({ model: ctx.modelRegistry.find("mock", "mock-model"), thinkingLevel: "off" }),
	});
};
`,
	);
	return path;
}

/** Virtual models registered by extensions are real catalog entries (docs/models.md). */
describe.skipIf(!cliBuilt)("virtual models at the CLI (built CLI)", () => {
	it("--list-models lists them with the physical models", async () => {
		const box = sandbox();
		writeMockModels(box, await mockServer());
		const result = await runCli(box, ["-e", writeRouter(box), "--list-models"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^router\s+auto\s+64K/m);
		expect(result.stdout).toMatch(/^mock\s+mock-model/m);
	});

	it("--model selects one; the answer streams from the model its router picked", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "routed answer" });
		const result = await runCli(box, ["-e", writeRouter(box), "--model", "router/auto", "-p", "hello"]);
		expect(result).toMatchObject({ code: 0, stdout: "routed answer\n" });
		const sessions = join(box.agentDir, "sessions");
		const [dir] = readdirSync(sessions);
		const [file] = readdirSync(join(sessions, dir!));
		const entries = readFileSync(join(sessions, dir!, file!), "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(entries.find((entry) => entry.type === "model_change")).toMatchObject({
			provider: "router",
			modelId: "auto",
		});
		expect(entries.find((entry) => entry.message?.role === "assistant")?.message).toMatchObject({
			provider: "mock",
			model: "mock-model",
		});
	});
});
