import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { radiusProvider } from "@tau/ai/providers/all";
import { type MockOAuthServer, startMockOAuthServer } from "@tau/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

/** `/login radius` in the interactive mode, against @tau/testkit's gateway sign-in. */

let harness: InteractiveHarness | undefined;
let oauthServer: MockOAuthServer;

const gatewayModel = {
	id: "team-fast",
	name: "Team fast",
	reasoning: false,
	input: ["text"],
	cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 8192,
};

beforeEach(async () => {
	oauthServer = await startMockOAuthServer({
		radiusCatalog: { baseUrl: "https://radius.pi.dev/v1", models: [gatewayModel] },
	});
	vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", oauthServer.origin);
});

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	vi.unstubAllEnvs();
	await oauthServer.close();
});

async function signInWithDeviceCode(current: InteractiveHarness): Promise<void> {
	current.submit("/login radius");
	await current.until(async () => (await current.screen()).includes("Sign in with Radius"));
	current.terminal.press(KEYS.enter);
	await current.until(async () => (await current.screen()).includes("Sign in with device code"));
	current.terminal.press(KEYS.down);
	current.terminal.press(KEYS.enter);
	await current.until(async () => (await current.screen()).includes("✓ Logged in to Radius"));
}

describe("/login radius", () => {
	it("signs in, fetches the account's catalog, then adds the Radius MCP server to the global mcp.json on Yes", async () => {
		harness = await InteractiveHarness.start({ columns: 200 });
		const current = harness;
		current.runtime.session.modelRuntime.registerNativeProvider(radiusProvider());
		await signInWithDeviceCode(current);
		const mcpPath = join(current.agentDir, "mcp.json");
		await current.until(async () => (await current.screen()).includes(`Configure Radius MCP in ${mcpPath}?`));
		current.terminal.press(KEYS.enter);
		await current.until(() => existsSync(mcpPath));
		expect(JSON.parse(readFileSync(mcpPath, "utf8"))).toEqual({
			mcpServers: { radius: { url: "https://radius.pi.dev/mcp", auth: { provider: "radius" } } },
		});
		const modelRuntime = current.runtime.session.modelRuntime;
		await current.until(() => modelRuntime.getModels("radius").length === 1);
		expect(modelRuntime.getModels("radius")[0]).toMatchObject({ id: "team-fast", api: "pi-messages" });
	});

	it("asks nothing when a global server already uses the login", async () => {
		const servers = { mcpServers: { radius: { url: "https://radius.pi.dev/mcp", auth: { provider: "radius" } } } };
		harness = await InteractiveHarness.start({ columns: 200, agentFiles: { "mcp.json": JSON.stringify(servers) } });
		const current = harness;
		current.runtime.session.modelRuntime.registerNativeProvider(radiusProvider());
		await signInWithDeviceCode(current);
		// The sign-in holds the program status at "blocked" until /login, with its MCP offer, has returned.
		await current.until(() => current.terminal.statuses.at(-1)?.state === "idle");
		expect(await current.screen()).not.toContain("Configure Radius MCP");
		expect(JSON.parse(readFileSync(join(current.agentDir, "mcp.json"), "utf8"))).toEqual(servers);
	});
});
