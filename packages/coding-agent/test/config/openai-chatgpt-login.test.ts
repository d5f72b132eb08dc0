import { join } from "node:path";
import type { OAuthCredential } from "@tau/ai";
import { builtinProviders } from "@tau/ai/providers/all";
import { type MockOAuthServer, startMockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { runAuth, scriptedTerminal } from "../cli/scripted-terminal.js";
import { readJson, tempDirs } from "./helpers.js";
import { runtimeWithAuthFile } from "./oauth-test-runtime.js";
import { mockOAuthServerPerTest } from "./oauth-test-server.js";
import { browserUser, pastingUser, type UserLog } from "./oauth-test-users.js";

/** "Sign in with ChatGPT" for the plain `openai` provider, against the @tau/testkit OAuth mock. */

const DEVICE_ID = "0F8FAD5B-D9CB-469F-A165-70867728950E";
const withDevice = { agentName: "tau", getDeviceId: () => DEVICE_ID };
const RESOURCE = "https://api.openai.com/v1";

let oauthServer: MockOAuthServer;
mockOAuthServerPerTest((server) => (oauthServer = server));

const setup = runtimeWithAuthFile;

const exchangesAt = (suffix: string) => oauthServer.exchanges.filter((exchange) => exchange.path.endsWith(suffix));

describe("Sign in with ChatGPT (openai)", () => {
	it("is offered beside the API key under Pi's name and label", () => {
		const openai = builtinProviders().find((provider) => provider.id === "openai")!;
		expect(openai.auth.apiKey).toBeDefined();
		expect(openai.auth.oauth).toMatchObject({
			name: "OpenAI (ChatGPT subscription)",
			loginLabel: "Sign in with ChatGPT",
			isSubscription: true,
		});
	});

	it("registers a client, keeps the issued client id and stores Pi's credential shape", async () => {
		const { runtime, authPath } = setup();
		const log: UserLog = { notices: [], prompts: [] };
		const before = Date.now();
		await runtime.login("openai", "oauth", browserUser(undefined, log), withDevice);
		const authorize = exchangesAt("/api/accounts/authorize")[0]!;
		expect(authorize).toMatchObject({
			host: "auth.openai.com",
			params: {
				client_id: "dynamic_agent_client",
				agent_name_hint: "tau",
				ext_agent_host_id: `urn:uuid:${DEVICE_ID.toLowerCase()}`,
				resource: RESOURCE,
				code_challenge_method: "S256",
			},
		});
		expect(authorize.params.scope!.split(" ")).toContain("chatgpt.tokens.use.direct");
		expect(authorize.params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\/callback$/);
		const issuedClient = exchangesAt("/api/accounts/oauth/token")[0]!.params;
		expect(issuedClient).toMatchObject({ grant_type: "authorization_code", resource: RESOURCE });
		expect(issuedClient.client_id).toMatch(/^agent-client-/);
		const stored = readJson(authPath).openai;
		expect(stored).toEqual({
			type: "oauth",
			access: expect.any(String),
			refresh: expect.stringMatching(/^refresh-/),
			expires: expect.any(Number),
			clientId: issuedClient.client_id,
			scopes: authorize.params.scope!.split(" "),
		});
		// Three minutes before the real expiry of the one-hour token.
		expect(stored.expires).toBeGreaterThanOrEqual(before + 3_600_000 - 180_000);
		expect(stored.expires).toBeLessThanOrEqual(Date.now() + 3_600_000 - 180_000);
		const paste = log.prompts.find((prompt) => prompt.type === "manual_code");
		expect(paste?.type === "manual_code" && paste.signal?.aborted).toBe(true);
		expect((await runtime.getAuth("openai"))?.auth.apiKey).toBe(stored.access);
		expect(runtime.isUsingSubscription("openai")).toBe(true);
	});

	it("accepts the pasted redirect URL, which carries the client id", async () => {
		const { runtime, authPath } = setup();
		await runtime.login(
			"openai",
			"oauth",
			pastingUser("browser", (redirect) => redirect.toString()),
			withDevice,
		);
		expect(readJson(authPath).openai.clientId).toMatch(/^agent-client-/);
	});

	it("refuses a pasted bare code, which lacks the client id", async () => {
		const { runtime, authPath } = setup();
		const login = runtime.login(
			"openai",
			"oauth",
			pastingUser("browser", (redirect) => redirect.searchParams.get("code")!),
			withDevice,
		);
		await expect(login).rejects.toThrow("paste the whole redirect URL");
		expect(() => readJson(authPath)).toThrow();
	});

	it("refuses a redirect whose state belongs to another sign-in", async () => {
		const { runtime, authPath } = setup();
		const login = runtime.login(
			"openai",
			"oauth",
			pastingUser("browser", (redirect) => {
				redirect.searchParams.set("state", "someone-else");
				return redirect.toString();
			}),
			withDevice,
		);
		await expect(login).rejects.toThrow("OAuth state mismatch");
		expect(exchangesAt("/token")).toHaveLength(0);
		expect(() => readJson(authPath)).toThrow();
	});

	it("refuses a pasted address that lost its state", async () => {
		const { runtime } = setup();
		const login = runtime.login(
			"openai",
			"oauth",
			pastingUser("browser", (redirect) => {
				redirect.searchParams.delete("state");
				return redirect.toString();
			}),
			withDevice,
		);
		await expect(login).rejects.toThrow("OAuth state mismatch");
		expect(exchangesAt("/token")).toHaveLength(0);
	});

	it("`tau auth login openai` signs in with the installation's device id, created in settings.json", async () => {
		const { agentDir } = tempDirs();
		const browser: Promise<Response>[] = [];
		const result = await runAuth(["login", "openai"], {
			agentDir,
			terminal: scriptedTerminal([]),
			openUrl: (url) => browser.push(fetch(url)),
		});
		expect(result).toMatchObject({ code: 0, stdout: "Logged in to OpenAI (openai).\n" });
		expect((await browser[0])?.status).toBe(200);
		const deviceId = readJson(join(agentDir, "settings.json")).deviceId;
		expect(exchangesAt("/api/accounts/authorize")[0]!.params.ext_agent_host_id).toBe(`urn:uuid:${deviceId}`);
		expect(readJson(join(agentDir, "auth.json")).openai.clientId).toMatch(/^agent-client-/);
	});

	it("needs the installation's device id", async () => {
		const { runtime } = setup();
		await expect(runtime.login("openai", "oauth", browserUser(undefined), { agentName: "tau" })).rejects.toThrow(
			"device id",
		);
		expect(oauthServer.exchanges).toHaveLength(0);
	});
});

describe("ChatGPT token refresh and use", () => {
	const scopes = ["openid", "offline_access", "chatgpt.tokens.use.direct"];
	const expired = (extra: Record<string, unknown> = {}): OAuthCredential => ({
		type: "oauth",
		access: "access-old",
		refresh: "refresh-from-pi",
		expires: Date.now() - 1000,
		clientId: "agent-client-pi",
		scopes,
		...extra,
	});

	it("refreshes a Pi user's credential with its issued client id and the API resource", async () => {
		oauthServer.seedRefreshToken("refresh-from-pi", {
			clientId: "agent-client-pi",
			scope: scopes.join(" "),
			resource: RESOURCE,
		});
		const { runtime, authPath } = setup({ auth: { openai: expired() } });
		const key = (await runtime.getAuth("openai"))?.auth.apiKey;
		expect(key).not.toBe("access-old");
		expect(exchangesAt("/token")[0]!.params).toEqual({
			grant_type: "refresh_token",
			client_id: "agent-client-pi",
			refresh_token: "refresh-from-pi",
			resource: RESOURCE,
		});
		const stored = readJson(authPath).openai;
		expect(stored).toMatchObject({ access: key, clientId: "agent-client-pi", scopes });
		expect(stored.refresh).not.toBe("refresh-from-pi");
		expect(oauthServer.refreshCount).toBe(1);
	});

	it("reports a revoked sign-in clearly and keeps the credential", async () => {
		const { runtime, authPath } = setup({ auth: { openai: expired() } });
		await expect(runtime.getAuth("openai")).rejects.toThrow(
			'OAuth refresh failed for openai: the sign-in was revoked or has expired; sign in again (/login or "auth login openai")',
		);
		expect(readJson(authPath).openai.refresh).toBe("refresh-from-pi");
	});

	it("asks for a new sign-in when a credential has no client id to refresh with", async () => {
		const { runtime } = setup({ auth: { openai: expired({ clientId: undefined }) } });
		await expect(runtime.getAuth("openai")).rejects.toThrow("the sign-in was revoked or has expired; sign in again");
		expect(oauthServer.exchanges).toHaveLength(0);
	});

	it("sends the ChatGPT token as the bearer of API requests", async () => {
		const llm = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			const { runtime } = setup({
				auth: { openai: expired({ access: "chatgpt-access", expires: Date.now() + 3_600_000 }) },
				modelsJson: { providers: { openai: { baseUrl: llm.baseUrl } } },
			});
			llm.enqueue({ text: "hello" });
			const model = runtime.getModels("openai")[0]!;
			const reply = await runtime.complete(model, {
				systemPrompt: "Be brief.",
				messages: [{ role: "user", content: "hi", timestamp: 0 }],
			});
			expect(reply.stopReason).toBe("stop");
			expect(llm.requests[0]!.headers.authorization).toBe("Bearer chatgpt-access");
		} finally {
			await llm.close();
		}
	});
});
