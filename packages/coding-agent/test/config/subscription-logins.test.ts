import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { AuthNotification, OAuthCredential } from "@tau/ai";
import { type MockOAuthServer, startMockLlmServer } from "@tau/testkit";
import { describe, expect, it, vi } from "vitest";
import { PI_CLI, PI_MISSING, PI_NODE, piInstalled } from "../support/pi-reference.js";
import { outputOf } from "../support/processes.js";
import { readJson, writeJson } from "./helpers.js";
import { runtimeWithAuthFile } from "./oauth-test-runtime.js";
import { mockOAuthServerPerTest } from "./oauth-test-server.js";
import { browserUser, pastingUser, type UserLog } from "./oauth-test-users.js";

let oauthServer: MockOAuthServer;
const { restart: restartOAuthServer } = mockOAuthServerPerTest((server) => (oauthServer = server));

const setup = runtimeWithAuthFile;

const tokenRequests = () => oauthServer.exchanges.filter((exchange) => exchange.path.endsWith("/token"));

describe("Anthropic (Claude Pro/Max) sign-in", () => {
	it("signs in through the browser and the loopback callback, and stores Pi's credential shape with mode 0600", async () => {
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		await runtime.login("anthropic", "oauth", browserUser("browser", log));
		const stored = readJson(authPath).anthropic;
		expect(stored).toEqual({
			type: "oauth",
			access: expect.stringMatching(/^sk-ant-oat01-/),
			refresh: expect.stringMatching(/^refresh-/),
			expires: expect.any(Number),
		});
		expect(statSync(authPath).mode & 0o777).toBe(0o600);
		const authorize = oauthServer.exchanges.find((exchange) => exchange.path === "/oauth/authorize")!;
		expect(authorize.host).toBe("claude.ai");
		expect(authorize.params).toMatchObject({ code_challenge_method: "S256", response_type: "code" });
		expect(authorize.params.scope).toContain("user:inference");
		expect(authorize.params.redirect_uri).toMatch(/^http:\/\/localhost:\d+\/callback$/);
		expect(tokenRequests()[0]).toMatchObject({
			host: "platform.claude.com",
			params: { grant_type: "authorization_code" },
		});
		// The paste prompt offered meanwhile was withdrawn once the browser came back.
		const paste = log.prompts.find((prompt) => prompt.type === "manual_code");
		expect(paste?.type === "manual_code" && paste.signal?.aborted).toBe(true);
		expect((await runtime.getAuth("anthropic"))?.auth.apiKey).toBe(stored.access);
		expect(runtime.isUsingOAuth("anthropic")).toBe(true);
	});

	it("accepts the redirect URL pasted from a browser on another machine", async () => {
		const { runtime, authPath } = setup();
		await runtime.login(
			"anthropic",
			"oauth",
			pastingUser("browser", (redirect) => redirect.toString()),
		);
		expect(readJson(authPath).anthropic.access).toMatch(/^sk-ant-oat01-/);
	});

	it("signs in with the copy-code page (code#state) on a headless machine", async () => {
		const { runtime, authPath } = setup();
		await runtime.login(
			"anthropic",
			"oauth",
			pastingUser(
				"paste",
				(redirect) => `${redirect.searchParams.get("code")}#${redirect.searchParams.get("state")}`,
			),
		);
		expect(readJson(authPath).anthropic.type).toBe("oauth");
		expect(tokenRequests()[0]!.params.redirect_uri).toBe("https://platform.claude.com/oauth/code/callback");
	});

	it("refuses a pasted code whose state belongs to another sign-in", async () => {
		const { runtime, authPath } = setup();
		const login = runtime.login(
			"anthropic",
			"oauth",
			pastingUser("paste", (redirect) => `${redirect.searchParams.get("code")}#someone-else`),
		);
		await expect(login).rejects.toThrow("OAuth state mismatch");
		expect(() => readJson(authPath)).toThrow();
	});

	it("sends requests as a subscription: bearer token, Claude Code betas and identity", async () => {
		const llm = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			const credential: OAuthCredential = {
				type: "oauth",
				access: "sk-ant-oat01-stored",
				refresh: "refresh-stored",
				expires: Date.now() + 3_600_000,
			};
			const { runtime } = setup({
				auth: { anthropic: credential },
				modelsJson: { providers: { anthropic: { baseUrl: llm.baseUrl } } },
			});
			llm.enqueue({ text: "hello" });
			const model = runtime.getModel("anthropic", "claude-sonnet-4-6")!;
			const reply = await runtime.complete(model, {
				systemPrompt: "Be brief.",
				messages: [{ role: "user", content: "hi", timestamp: 0 }],
			});
			expect(reply.stopReason).toBe("stop");
			const request = llm.requests[0]!;
			expect(request.headers.authorization).toBe("Bearer sk-ant-oat01-stored");
			expect(request.headers["x-api-key"]).toBeUndefined();
			expect(request.headers["anthropic-beta"]).toContain("claude-code-20250219");
			expect(request.headers["anthropic-beta"]).toContain("oauth-2025-04-20");
			const system = (request.body as { system: { text: string }[] }).system.map((block) => block.text);
			expect(system).toEqual(["You are Claude Code, Anthropic's official CLI for Claude.", "Be brief."]);
		} finally {
			await llm.close();
		}
	});

	it("sends an API key as before (negative control)", async () => {
		const llm = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			const { runtime } = setup({
				auth: { anthropic: { type: "api_key", key: "sk-ant-api03-key" } },
				modelsJson: { providers: { anthropic: { baseUrl: llm.baseUrl } } },
			});
			llm.enqueue({ text: "hello" });
			const model = runtime.getModel("anthropic", "claude-sonnet-4-6")!;
			await runtime.complete(model, {
				systemPrompt: "Be brief.",
				messages: [{ role: "user", content: "hi", timestamp: 0 }],
			});
			const request = llm.requests[0]!;
			expect(request.headers["x-api-key"]).toBe("sk-ant-api03-key");
			expect(request.headers.authorization).toBeUndefined();
			expect((request.body as { system: unknown[] }).system).toHaveLength(1);
		} finally {
			await llm.close();
		}
	});
});

describe("GitHub Copilot sign-in", () => {
	it("runs the device flow, exchanges the GitHub token for a Copilot token and derives the API host", async () => {
		await restartOAuthServer({ pendingPolls: 2 });
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		await runtime.login("github-copilot", "oauth", browserUser(undefined, log));
		const device = log.notices.find((notice) => notice.type === "device_code") as Extract<
			AuthNotification,
			{ type: "device_code" }
		>;
		expect(device).toMatchObject({ code: "ABCD-1234", url: "https://github.com/login/device" });
		const polls = oauthServer.exchanges.filter((exchange) => exchange.path === "/login/oauth/access_token");
		expect(polls).toHaveLength(3);
		const stored = readJson(authPath)["github-copilot"];
		expect(stored).toMatchObject({ type: "oauth", refresh: expect.stringMatching(/^gho_/) });
		expect(stored.access).toContain("proxy-ep=proxy.individual.githubcopilot.com");
		const exchange = oauthServer.exchanges.find((entry) => entry.path === "/copilot_internal/v2/token")!;
		expect(exchange.host).toBe("api.github.com");
		expect(exchange.headers.authorization).toBe(`Bearer ${stored.refresh}`);
		const auth = (await runtime.getAuth("github-copilot"))!.auth;
		expect(auth).toMatchObject({
			apiKey: stored.access,
			baseUrl: `${oauthServer.origin}/api.individual.githubcopilot.com`,
		});
	});

	it("sends requests to the API host the Copilot token names, with the Copilot token as bearer (as Pi)", async () => {
		const llm = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			const token = "tid=1;exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;sku=test";
			const { runtime } = setup({
				auth: {
					"github-copilot": { type: "oauth", access: token, refresh: "gho_x", expires: Date.now() + 3_600_000 },
				},
			});
			// The test-only origin stands in for the Copilot API host here.
			vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", llm.baseUrl);
			llm.enqueue({ text: "hi from copilot" });
			const model = runtime.getModel("github-copilot", "claude-haiku-4.5")!;
			const reply = await runtime.complete(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] });
			expect(reply.stopReason).toBe("stop");
			const request = llm.requests[0]!;
			expect(request.path.startsWith("/api.individual.githubcopilot.com/")).toBe(true);
			expect(request.headers.authorization).toBe(`Bearer ${token}`);
			expect(request.headers["x-api-key"]).toBeUndefined();
		} finally {
			await llm.close();
		}
	});

	it("signs in to GitHub Enterprise on its own domain and keeps the domain for refreshes", async () => {
		const { runtime, authPath } = setup();
		const user = browserUser(undefined);
		await runtime.login("github-copilot", "oauth", {
			...user,
			prompt: async (prompt) => (prompt.type === "text" ? "https://ghe.example.com/" : user.prompt(prompt)),
		});
		expect(oauthServer.exchanges[0]).toMatchObject({ host: "ghe.example.com", path: "/login/device/code" });
		expect(readJson(authPath)["github-copilot"].enterpriseUrl).toBe("ghe.example.com");
		const exchange = oauthServer.exchanges.find((entry) => entry.path === "/copilot_internal/v2/token");
		expect(exchange?.host).toBe("api.ghe.example.com");
	});
});

describe("OpenAI Codex (ChatGPT Plus/Pro) sign-in", () => {
	it("signs in through the browser and stores the ChatGPT account id", async () => {
		const { runtime, authPath } = setup();
		await runtime.login("openai-codex", "oauth", browserUser(undefined), { agentName: "tau" });
		const stored = readJson(authPath)["openai-codex"];
		expect(stored).toMatchObject({
			type: "oauth",
			accountId: "acct-test",
			refresh: expect.stringMatching(/^refresh-/),
		});
		const authorize = oauthServer.exchanges.find((exchange) => exchange.path === "/oauth/authorize")!;
		expect(authorize).toMatchObject({
			host: "auth.openai.com",
			params: { originator: "tau", codex_cli_simplified_flow: "true" },
		});
		expect(authorize.params.redirect_uri).toMatch(/^http:\/\/localhost:\d+\/auth\/callback$/);
		expect(tokenRequests()[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
		expect((await runtime.getAuth("openai-codex"))?.auth.apiKey).toBe(stored.access);
	});

	it("accepts the pasted redirect URL", async () => {
		const { runtime, authPath } = setup();
		await runtime.login(
			"openai-codex",
			"oauth",
			pastingUser("browser", (redirect) => redirect.toString()),
		);
		expect(readJson(authPath)["openai-codex"].accountId).toBe("acct-test");
	});

	it("signs in with a device code on a remote machine", async () => {
		await restartOAuthServer({ pendingPolls: 1 });
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		await runtime.login("openai-codex", "oauth", browserUser("device", log));
		expect(log.notices).toContainEqual(
			expect.objectContaining({
				type: "device_code",
				code: "ABCD-1234",
				url: "https://auth.openai.com/codex/device",
			}),
		);
		expect(oauthServer.exchanges.filter((exchange) => exchange.path.endsWith("/deviceauth/token"))).toHaveLength(2);
		const exchange = oauthServer.exchanges.find((entry) => entry.params.grant_type === "authorization_code");
		expect(exchange?.params.redirect_uri).toBe("https://auth.openai.com/deviceauth/callback");
		expect(readJson(authPath)["openai-codex"].accountId).toBe("acct-test");
	});
});

describe("OpenRouter sign-in", () => {
	it("exchanges the browser's code for a permanent key, also when the redirect is pasted", async () => {
		const { runtime, authPath } = setup();
		await runtime.login("openrouter", "oauth", browserUser(undefined));
		const stored = readJson(authPath).openrouter;
		expect(stored).toEqual({
			type: "oauth",
			access: expect.stringMatching(/^sk-or-v1-/),
			refresh: "",
			expires: Number.MAX_SAFE_INTEGER,
		});
		const authorize = oauthServer.exchanges.find((exchange) => exchange.path === "/auth")!;
		expect(authorize.params.callback_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\/[0-9a-f-]{36}$/);
		expect((await runtime.getAuth("openrouter"))?.auth.apiKey).toBe(stored.access);
		await runtime.login(
			"openrouter",
			"oauth",
			pastingUser("", (redirect) => redirect.toString()),
		);
		expect(readJson(authPath).openrouter.access).not.toBe(stored.access);
	});
});

describe("RFC 8628 device sign-ins (xAI, Kimi Code, Meta)", () => {
	it("xAI: polls past authorization_pending and uses the access token as the key", async () => {
		await restartOAuthServer({ pendingPolls: 1 });
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		await runtime.login("xai", "oauth", browserUser(undefined, log));
		expect(log.notices).toContainEqual(expect.objectContaining({ type: "device_code", code: "ABCD-1234" }));
		const polls = oauthServer.exchanges.filter((exchange) => exchange.path === "/oauth2/token");
		expect(polls).toHaveLength(2);
		expect(oauthServer.exchanges[0]).toMatchObject({ host: "auth.x.ai", path: "/oauth2/device/code" });
		expect(oauthServer.exchanges[0]!.params.scope).toContain("api:access");
		const stored = readJson(authPath).xai;
		expect(stored).toMatchObject({ type: "oauth", access: expect.stringMatching(/^access-/) });
		expect((await runtime.getAuth("xai"))?.auth.apiKey).toBe(stored.access);
	});

	it("Kimi Code: signs in and sends the token as a bearer header", async () => {
		const { runtime, authPath } = setup();
		await runtime.login("kimi-coding", "oauth", browserUser(undefined));
		expect(oauthServer.exchanges[0]).toMatchObject({
			host: "auth.kimi.com",
			path: "/api/oauth/device_authorization",
		});
		const stored = readJson(authPath)["kimi-coding"];
		expect((await runtime.getAuth("kimi-coding"))?.auth.headers).toEqual({
			Authorization: `Bearer ${stored.access}`,
		});
	});

	it("Meta: mints a Model API key with the identity token, re-mints it when it expires, and reports a dead session", async () => {
		const { runtime, authPath } = setup();
		await runtime.login("meta", "oauth", browserUser(undefined));
		expect(oauthServer.exchanges[0]).toMatchObject({ host: "auth.meta.com", path: "/oidc/device/authorization" });
		const stored = readJson(authPath).meta;
		expect(stored).toMatchObject({
			type: "oauth",
			access: expect.stringMatching(/^meta-key-/),
			refresh: expect.stringMatching(/^access-/),
		});
		writeJson(authPath, { meta: { ...stored, expires: Date.now() - 1000 } });
		const renewed = (await runtime.getAuth("meta"))?.auth.apiKey;
		expect(renewed).toMatch(/^meta-key-/);
		expect(renewed).not.toBe(stored.access);
		oauthServer.revokeAll();
		writeJson(authPath, { meta: { ...readJson(authPath).meta, expires: Date.now() - 1000 } });
		await expect(runtime.getAuth("meta")).rejects.toThrow("the sign-in was revoked or has expired");
	});
});

describe.skipIf(!piInstalled)(
	`credentials tau stores, read by Pi 1.6${piInstalled ? "" : ` (skipped: ${PI_MISSING})`}`,
	() => {
		it.each([
			["anthropic", "browser"],
			["openai-codex", "browser"],
			["github-copilot", undefined],
		])("%s: Pi prints the access token tau's sign-in stored", { timeout: 60_000 }, async (providerId, method) => {
			const { runtime, authPath } = setup();
			await runtime.login(providerId, "oauth", browserUser(method));
			const printed = await outputOf(PI_NODE, [PI_CLI, "auth", "print-bearer-token", "--provider", providerId], {
				env: {
					PATH: process.env.PATH,
					HOME: dirname(authPath),
					PI_CODING_AGENT_DIR: dirname(authPath),
					PI_OFFLINE: "1",
				},
			});
			expect(printed.trim()).toBe(readJson(authPath)[providerId].access);
		});
	},
);
