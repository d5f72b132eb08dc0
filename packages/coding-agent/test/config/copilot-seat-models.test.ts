import type { OAuthCredential } from "@tau/ai";
import { type MockCopilotSeatOptions, type MockOAuthServer, startMockOAuthServer } from "@tau/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderModelList } from "../../src/cli/list-models.js";
import { readJson } from "./helpers.js";
import { runtimeWithAuthFile } from "./oauth-test-runtime.js";
import { browserUser, type UserLog } from "./oauth-test-users.js";

/*
 * A GitHub Copilot sign-in stores which models the seat can use (Pi 1.6's `availableModelIds`),
 * accepting the terms of the models that need it first; the model list then offers only those.
 */

let oauthServer: MockOAuthServer | undefined;

afterEach(async () => {
	vi.unstubAllEnvs();
	await oauthServer?.close();
	oauthServer = undefined;
});

async function seat(options: MockCopilotSeatOptions): Promise<MockOAuthServer> {
	oauthServer = await startMockOAuthServer({ copilotSeat: options });
	vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", oauthServer.origin);
	return oauthServer;
}

/**
 * A seat with one model of each kind: usable; in the picker with its terms unaccepted (usable, as in
 * Pi, and tau accepts them); disabled; outside the picker; unknown to tau; unable to call tools.
 */
const MIXED_SEAT: MockCopilotSeatOptions = {
	models: [
		{ id: "claude-haiku-4.5" },
		{ id: "claude-sonnet-4.6", policy: "unconfigured" },
		{ id: "gpt-5.4-nano", policy: "disabled" },
		{ id: "grok-4.5", pickerEnabled: false },
		{ id: "model-tau-does-not-know", policy: "unconfigured" },
		{ id: "claude-opus-4.8", toolCalls: false },
	],
};

const policyRequests = (server: MockOAuthServer) =>
	server.exchanges.filter((exchange) => exchange.method === "POST" && exchange.path.endsWith("/policy"));

async function signIn(log: UserLog = { notices: [], prompts: [] }) {
	const { runtime, authPath } = runtimeWithAuthFile();
	await runtime.login("github-copilot", "oauth", browserUser(undefined, log));
	return { runtime, authPath, log };
}

async function copilotModelIds(runtime: ReturnType<typeof runtimeWithAuthFile>["runtime"]): Promise<string[]> {
	return (await runtime.getAvailable("github-copilot")).map((model) => model.id).sort();
}

describe("GitHub Copilot sign-in: the seat's models", () => {
	it("enables the models whose terms are unaccepted, stores the usable ids, and lists only them", async () => {
		const server = await seat(MIXED_SEAT);
		const { runtime, authPath, log } = await signIn();
		const stored = readJson(authPath)["github-copilot"];
		expect(stored.availableModelIds).toEqual(["claude-haiku-4.5", "claude-sonnet-4.6", "model-tau-does-not-know"]);
		expect(server.copilotPolicies.get("claude-sonnet-4.6")).toBe("enabled");

		const list = server.exchanges.find((exchange) => exchange.method === "GET" && exchange.path === "/models")!;
		expect(list.host).toBe("api.individual.githubcopilot.com");
		expect(list.headers).toMatchObject({
			authorization: `Bearer ${stored.access}`,
			"x-github-api-version": "2026-06-01",
			"copilot-integration-id": "vscode-chat",
			"editor-version": "vscode/1.107.0",
		});
		// Only the unconfigured model tau knows gets a policy request.
		const policies = policyRequests(server);
		expect(policies.map((exchange) => exchange.path)).toEqual(["/models/claude-sonnet-4.6/policy"]);
		expect(policies[0]).toMatchObject({
			params: { state: "enabled" },
			headers: { "openai-intent": "chat-policy", "x-interaction-type": "chat-policy" },
		});
		expect(log.notices).toContainEqual({ type: "progress", message: "Enabling models..." });

		expect(await copilotModelIds(runtime)).toEqual(["claude-haiku-4.5", "claude-sonnet-4.6"]);
		// What `--list-models` prints: the snapshot of every configured provider.
		const table = renderModelList((await runtime.getAvailable()).filter((m) => m.provider === "github-copilot"));
		expect(table.trim().split("\n").slice(1)).toEqual([
			expect.stringMatching(/^github-copilot\s+claude-haiku-4\.5\s/),
			expect.stringMatching(/^github-copilot\s+claude-sonnet-4\.6\s/),
		]);
		// An explicitly named model outside the seat's list still resolves (as Pi's `--model`).
		expect(runtime.getModel("github-copilot", "gpt-5.4-nano")).toBeDefined();
	});

	it("on the individual plan with nothing in the picker, falls back to the models the policies enable", async () => {
		const server = await seat({
			models: [
				{ id: "claude-haiku-4.5", pickerEnabled: false },
				{ id: "claude-sonnet-4.6", pickerEnabled: false, policy: "unconfigured" },
				{ id: "gpt-5.4-nano", pickerEnabled: false, policy: "disabled" },
			],
		});
		const { runtime, authPath } = await signIn();
		expect(readJson(authPath)["github-copilot"].availableModelIds).toEqual(["claude-haiku-4.5", "claude-sonnet-4.6"]);
		expect(policyRequests(server)).toHaveLength(1);
		expect(await copilotModelIds(runtime)).toEqual(["claude-haiku-4.5", "claude-sonnet-4.6"]);
	});

	/** An individual seat whose picker flags are all false: the policies decide what is usable. */
	const policyOnlySeat = (policyFailures: Record<string, number>): MockCopilotSeatOptions => ({
		models: [
			{ id: "claude-haiku-4.5", pickerEnabled: false },
			{ id: "claude-sonnet-4.6", pickerEnabled: false, policy: "unconfigured" },
			{ id: "claude-opus-4.8", pickerEnabled: false, policy: "unconfigured" },
		],
		policyFailures,
	});

	it("a refused policy request leaves that model out and says so; the sign-in still succeeds", async () => {
		await seat(policyOnlySeat({ "claude-sonnet-4.6": 403 }));
		const { runtime, authPath, log } = await signIn();
		expect(readJson(authPath)["github-copilot"].availableModelIds).toEqual(["claude-haiku-4.5", "claude-opus-4.8"]);
		const info = log.notices.find((notice) => notice.type === "info");
		expect(info).toMatchObject({ message: expect.stringContaining("claude-sonnet-4.6 failed (HTTP 403)") });
		expect(await copilotModelIds(runtime)).toEqual(["claude-haiku-4.5", "claude-opus-4.8"]);
	});

	it("a rate limit that outlasts the retries stops the remaining policy requests", async () => {
		const server = await seat(policyOnlySeat({ "claude-sonnet-4.6": 429 }));
		const { authPath, log } = await signIn();
		// One request and two retries for the first model; the second is not tried.
		expect(policyRequests(server).map((exchange) => exchange.path)).toEqual([
			"/models/claude-sonnet-4.6/policy",
			"/models/claude-sonnet-4.6/policy",
			"/models/claude-sonnet-4.6/policy",
		]);
		expect(readJson(authPath)["github-copilot"].availableModelIds).toEqual(["claude-haiku-4.5"]);
		const info = log.notices.find((notice) => notice.type === "info");
		expect(info).toMatchObject({
			message: expect.stringContaining("not tried after the rate limit: claude-opus-4.8"),
		});
	});

	it("a failed model list fails the sign-in with the status, and stores nothing", async () => {
		await seat({ modelListStatus: 503 });
		const { runtime, authPath } = runtimeWithAuthFile();
		await expect(runtime.login("github-copilot", "oauth", browserUser(undefined))).rejects.toThrow(
			"GitHub Copilot model list request failed (HTTP 503)",
		);
		expect(() => readJson(authPath)).toThrow();
	});
});

describe("GitHub Copilot credentials without a model list", () => {
	const piCredential = (expires: number): OAuthCredential => ({
		type: "oauth",
		refresh: "gho_from-pi",
		access: "tid=1;exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;sku=test",
		expires,
	});

	it("a Pi credential saved without availableModelIds lists every Copilot model, as Pi does", async () => {
		await seat(MIXED_SEAT);
		const { runtime } = runtimeWithAuthFile({ auth: { "github-copilot": piCredential(Date.now() + 3_600_000) } });
		const all = runtime
			.getModels("github-copilot")
			.map((model) => model.id)
			.sort();
		expect(all.length).toBeGreaterThan(10);
		expect(await copilotModelIds(runtime)).toEqual(all);
	});

	it("its refresh stores the seat's list, and from then on only those models are listed", async () => {
		const server = await seat(MIXED_SEAT);
		server.seedRefreshToken("gho_from-pi");
		const { runtime, authPath } = runtimeWithAuthFile({
			auth: { "github-copilot": piCredential(Date.now() - 1000) },
		});
		await runtime.getAuth("github-copilot");
		// A refresh lists the models but accepts no terms (only a sign-in does, as in Pi).
		expect(readJson(authPath)["github-copilot"].availableModelIds).toEqual([
			"claude-haiku-4.5",
			"claude-sonnet-4.6",
			"model-tau-does-not-know",
		]);
		expect(policyRequests(server)).toHaveLength(0);
		expect(await copilotModelIds(runtime)).toEqual(["claude-haiku-4.5", "claude-sonnet-4.6"]);
	});

	it("a COPILOT_GITHUB_TOKEN (no sign-in) lists every Copilot model", async () => {
		vi.stubEnv("COPILOT_GITHUB_TOKEN", "ghu_token");
		const { runtime } = runtimeWithAuthFile();
		expect((await runtime.getAvailable("github-copilot")).length).toBe(runtime.getModels("github-copilot").length);
	});
});
