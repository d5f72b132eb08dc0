import { join } from "node:path";
import type { AuthNotification, OAuthCredential } from "@tau/ai";
import { type MockLlmServer, type MockOAuthServer, startMockLlmServer, startMockOAuthServer } from "@tau/testkit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runAuth, scriptedTerminal } from "../cli/scripted-terminal.js";
import { readJson, tempDirs, writeJson } from "./helpers.js";
import { runtimeWithAuthFile } from "./oauth-test-runtime.js";
import { browserUser, type UserLog } from "./oauth-test-users.js";

/** The Radius provider end to end: sign-in, refresh, the gateway's catalog and a prompt, against @tau/testkit. */

const LIVE_TOKEN = "radius-live-token";
const gatewayModel = (id: string) => ({
	id,
	name: `Gateway ${id}`,
	reasoning: true,
	input: ["text"],
	cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 8192,
});

let oauthServer: MockOAuthServer;
let llm: MockLlmServer;

beforeEach(async () => {
	llm = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
	oauthServer = await startMockOAuthServer({
		radiusCatalog: { baseUrl: llm.url("/pi/v1"), models: [gatewayModel("team-fast"), gatewayModel("team-deep")] },
	});
	vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", oauthServer.origin);
});

afterEach(async () => {
	vi.unstubAllEnvs();
	await Promise.all([oauthServer.close(), llm.close()]);
});

const exchangesAt = (suffix: string) => oauthServer.exchanges.filter((exchange) => exchange.path.endsWith(suffix));

const setup = (options: Parameters<typeof runtimeWithAuthFile>[0] = {}) =>
	runtimeWithAuthFile({ ...options, modelsStore: true });

const signedIn = (extra: Partial<OAuthCredential> = {}): OAuthCredential => ({
	type: "oauth",
	access: LIVE_TOKEN,
	refresh: "refresh-from-pi",
	expires: Date.now() + 3_600_000,
	scope: "gateway offline_access",
	...extra,
});

describe("Radius sign-in", () => {
	it("signs in in the browser with the address the gateway names, storing Pi's credential", async () => {
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		const before = Date.now();
		await runtime.login("radius", "oauth", browserUser("browser", log));
		expect(log.prompts[0]).toMatchObject({
			type: "select",
			options: [{ value: "browser" }, { value: "device-code" }],
		});
		expect(exchangesAt("/v1/oauth")[0]).toMatchObject({ method: "GET", host: "radius.pi.dev" });
		const authorize = exchangesAt("/oauth/authorize")[0]!;
		expect(authorize.params).toMatchObject({
			response_type: "code",
			client_id: "pi-gateway",
			scope: "gateway offline_access",
			code_challenge_method: "S256",
			handoff: "url",
		});
		expect(authorize.params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
		expect(exchangesAt("/v1/oauth/token")[0]!.params).toMatchObject({
			grant_type: "authorization_code",
			client_id: "pi-gateway",
			redirect_uri: authorize.params.redirect_uri,
		});
		const stored = readJson(authPath).radius;
		expect(stored).toEqual({
			type: "oauth",
			access: expect.stringMatching(/^access-/),
			refresh: expect.stringMatching(/^refresh-/),
			expires: expect.any(Number),
			scope: "gateway offline_access",
		});
		// One minute before the real expiry of the one-hour token.
		expect(stored.expires).toBeGreaterThanOrEqual(before + 3_600_000 - 60_000);
		expect(stored.expires).toBeLessThanOrEqual(Date.now() + 3_600_000 - 60_000);
		expect((await runtime.getAuth("radius"))?.auth.apiKey).toBe(stored.access);
	});

	it("signs in with a device code shown to the user", async () => {
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		await runtime.login("radius", "oauth", browserUser("device-code", log));
		expect(exchangesAt("/v1/oauth/device")[0]!.params).toEqual({
			client_id: "pi-gateway",
			scope: "gateway offline_access",
		});
		const shown = log.notices.find(
			(notice): notice is Extract<AuthNotification, { type: "device_code" }> => notice.type === "device_code",
		);
		expect(shown).toMatchObject({ code: "ABCD-1234", url: "https://radius.pi.dev/login/device" });
		expect(readJson(authPath).radius.access).toMatch(/^access-/);
	});

	it("refreshes an expired sign-in at the gateway and stores the rotated tokens", async () => {
		oauthServer.seedRefreshToken("refresh-from-pi");
		const { runtime, authPath } = setup({ auth: { radius: signedIn({ access: "old", expires: Date.now() - 1 }) } });
		const key = (await runtime.getAuth("radius"))?.auth.apiKey;
		expect(key).toMatch(/^access-/);
		expect(exchangesAt("/v1/oauth/token")[0]!.params).toEqual({
			grant_type: "refresh_token",
			client_id: "pi-gateway",
			refresh_token: "refresh-from-pi",
		});
		expect(readJson(authPath).radius).toMatchObject({ access: key, refresh: expect.stringMatching(/^refresh-/) });
	});

	it("a revoked sign-in asks for a new one and keeps the credential", async () => {
		const { runtime, authPath } = setup({ auth: { radius: signedIn({ expires: Date.now() - 1 }) } });
		await expect(runtime.getAuth("radius")).rejects.toThrow(
			'OAuth refresh failed for radius: the sign-in was revoked or has expired; sign in again (/login or "auth login radius")',
		);
		expect(readJson(authPath).radius.refresh).toBe("refresh-from-pi");
	});
});

describe("Radius catalog and requests", () => {
	it("replaces the shipped list with the account's catalog, stored for an offline start", async () => {
		const { runtime, agentDir } = setup({ auth: { radius: signedIn() } });
		expect(runtime.getModels("radius").map((model) => model.id)).toContain("balanced");
		await runtime.refresh({ allowNetwork: true, providers: ["radius"] });
		expect(exchangesAt("/v1/config")[0]).toMatchObject({ host: "radius.pi.dev" });
		expect(exchangesAt("/v1/config")[0]!.headers.authorization).toBe(`Bearer ${LIVE_TOKEN}`);
		expect(runtime.getModels("radius").map((model) => model.id)).toEqual(["team-fast", "team-deep"]);

		const offline = setup({ agentDir }).runtime;
		await offline.refresh({ allowNetwork: false });
		expect(offline.getModels("radius").map((model) => model.id)).toEqual(["team-fast", "team-deep"]);
		expect(exchangesAt("/v1/config")).toHaveLength(1);
	});

	it("a Pi credential that still carries its gateway catalog seeds the store when the gateway is unreachable", async () => {
		const gatewayConfig = { baseUrl: llm.url("/pi/v1"), models: [gatewayModel("from-pi")] };
		// An access token the gateway did not issue is refused, so only the kept catalog is there to use.
		const { runtime, agentDir } = setup({ auth: { radius: signedIn({ access: "access-unknown", gatewayConfig }) } });
		const result = await runtime.refresh({ allowNetwork: true, providers: ["radius"] });
		expect(result.errors.get("radius")?.message).toContain("401");
		expect(runtime.getModels("radius").map((model) => model.id)).toEqual(["from-pi"]);
		expect(readJson(join(agentDir, "models-store.json")).radius.models[0]).toMatchObject({ id: "from-pi" });
	});

	it("sends a prompt to the gateway over pi-messages with the signed-in token", async () => {
		const { runtime } = setup({ auth: { radius: signedIn() } });
		await runtime.refresh({ allowNetwork: true, providers: ["radius"] });
		llm.enqueue({ text: "Hello from the gateway", usage: { input: 10, output: 4 } });
		const model = runtime.getModel("radius", "team-fast")!;
		const reply = await runtime.complete(model, {
			systemPrompt: "Be brief.",
			messages: [{ role: "user", content: "hi", timestamp: 0 }],
		});
		expect(reply).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "Hello from the gateway" }] });
		expect(reply.usage.cost.total).toBeGreaterThan(0);
		expect(llm.requests[0]).toMatchObject({ path: "/pi/v1/messages" });
		expect(llm.requests[0]!.headers.authorization).toBe(`Bearer ${LIVE_TOKEN}`);
		expect(llm.requests[0]!.body).toMatchObject({ model: "team-fast" });
	});

	it("a gateway named in models.json signs in there and lists only its own catalog", async () => {
		const { runtime } = setup({
			auth: { "team-gw": signedIn() },
			modelsJson: {
				providers: { "team-gw": { name: "Team gateway", oauth: "radius", baseUrl: "https://gw.example/v1" } },
			},
		});
		const provider = runtime.models.getProvider("team-gw")!;
		expect(provider.name).toBe("Team gateway");
		expect(provider.auth.oauth).toBeDefined();
		expect(runtime.getModels("team-gw")).toEqual([]);
		await runtime.refresh({ allowNetwork: true, providers: ["team-gw"] });
		expect(exchangesAt("/v1/config")[0]).toMatchObject({ host: "gw.example" });
		const models = runtime.getModels("team-gw");
		expect(models.map((model) => [model.id, model.provider, model.api])).toEqual([
			["team-fast", "team-gw", "pi-messages"],
			["team-deep", "team-gw", "pi-messages"],
		]);
	});
});

describe("tau auth login radius", () => {
	const login = (agentDir: string) =>
		runAuth(["login", "radius", "--no-browser"], { agentDir, terminal: scriptedTerminal(["2\r"]) });

	it("signs in, stores the catalog and adds the Radius MCP server to the global mcp.json once", async () => {
		const { agentDir } = tempDirs();
		const first = await login(agentDir);
		const mcpPath = join(agentDir, "mcp.json");
		expect(first).toMatchObject({
			code: 0,
			stdout: `Logged in to Radius (radius).\nAdded MCP server "radius" in ${mcpPath} to use the Radius login.\n`,
		});
		expect(readJson(mcpPath)).toEqual({
			mcpServers: { radius: { url: "https://radius.pi.dev/mcp", auth: { provider: "radius" } } },
		});
		expect(Object.keys(readJson(join(agentDir, "models-store.json")))).toEqual(["radius"]);

		const second = await login(agentDir);
		expect(second).toMatchObject({ code: 0, stdout: "Logged in to Radius (radius).\n" });
		expect(Object.keys(readJson(mcpPath).mcpServers)).toEqual(["radius"]);
	});

	it("re-points a server at the Radius address to the login, dropping its own OAuth sign-in", async () => {
		const { agentDir } = tempDirs();
		const mcpPath = join(agentDir, "mcp.json");
		writeJson(mcpPath, {
			mcpServers: {
				tools: { url: "https://radius.pi.dev/mcp/", oauth: { clientName: "x" }, exposure: "direct" },
			},
		});
		const result = await login(agentDir);
		expect(result.stdout).toContain(`Updated MCP server "tools" in ${mcpPath}`);
		expect(readJson(mcpPath).mcpServers).toEqual({
			tools: { url: "https://radius.pi.dev/mcp/", exposure: "direct", auth: { provider: "radius" } },
		});
	});

	it("names the new server radius-mcp when another server holds the radius namespace", async () => {
		const { agentDir } = tempDirs();
		const mcpPath = join(agentDir, "mcp.json");
		writeJson(mcpPath, { mcpServers: { radius: { command: "radius-local" } } });
		await login(agentDir);
		expect(readJson(mcpPath).mcpServers).toEqual({
			radius: { command: "radius-local" },
			"radius-mcp": { url: "https://radius.pi.dev/mcp", auth: { provider: "radius" } },
		});
	});
});
