import { fileURLToPath } from "node:url";
import type { OAuthCredential } from "@tau/ai";
import type { MockOAuthServer, ResourceGrant } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { outputOf } from "../support/processes.js";
import { readJson } from "./helpers.js";
import { runtimeWithAuthFile } from "./oauth-test-runtime.js";
import { mockOAuthServerPerTest } from "./oauth-test-server.js";

/**
 * Refresh of every subscription sign-in that expires, against the @tau/testkit OAuth mock: two
 * processes racing, and a revoked sign-in. OpenRouter is not here: its key is permanent and never refreshed.
 */

let oauthServer: MockOAuthServer;
mockOAuthServerPerTest((server) => (oauthServer = server));

const setup = runtimeWithAuthFile;

const expired = (extra: Record<string, unknown> = {}): OAuthCredential => ({
	type: "oauth",
	access: "sk-ant-oat01-old",
	refresh: "refresh-from-pi",
	expires: Date.now() - 1000,
	...extra,
});

const CHATGPT_SCOPES = ["openid", "offline_access", "chatgpt.tokens.use.direct"];

/** Each sign-in that refreshes: the endpoint its refresh calls and the fields of its stored credential. */
const refreshing: { id: string; endpoint: string; fields?: Record<string, unknown>; grant?: ResourceGrant }[] = [
	{ id: "anthropic", endpoint: "platform.claude.com/v1/oauth/token" },
	{ id: "github-copilot", endpoint: "api.github.com/copilot_internal/v2/token", fields: { access: "tid=old" } },
	{ id: "openai-codex", endpoint: "auth.openai.com/oauth/token" },
	{
		id: "openai",
		endpoint: "auth.openai.com/api/accounts/oauth/token",
		fields: { clientId: "agent-client-pi", scopes: CHATGPT_SCOPES },
		grant: { clientId: "agent-client-pi", scope: CHATGPT_SCOPES.join(" "), resource: "https://api.openai.com/v1" },
	},
	{ id: "xai", endpoint: "auth.x.ai/oauth2/token" },
	{ id: "kimi-coding", endpoint: "auth.kimi.com/api/oauth/token" },
	// Meta keeps the identity token as the refresh token and "refreshes" by minting a new key with it.
	{ id: "meta", endpoint: "api.meta.ai/muse-code/key" },
	{ id: "radius", endpoint: "radius.pi.dev/v1/oauth/token", fields: { scope: "gateway offline_access" } },
];

/** An expired credential per sign-in (each with its own refresh token), accepted by the mock until revoked. */
function expiredSignIns(): Record<string, OAuthCredential> {
	const auth: Record<string, OAuthCredential> = {};
	for (const { id, fields, grant } of refreshing) {
		auth[id] = expired({ access: `old-${id}`, refresh: `refresh-from-pi-${id}`, ...fields });
		oauthServer.seedRefreshToken(auth[id].refresh, grant);
	}
	return auth;
}

describe("refresh and revocation", () => {
	it("refreshes a Pi user's expired credentials and keeps Pi's extra fields", async () => {
		oauthServer.seedRefreshToken("refresh-from-pi");
		oauthServer.seedRefreshToken("gho_from-pi");
		const { runtime, authPath } = setup({
			auth: {
				anthropic: expired(),
				"github-copilot": expired({ refresh: "gho_from-pi", access: "tid=old", availableModelIds: ["gpt-4o"] }),
			},
		});
		expect((await runtime.getAuth("anthropic"))?.auth.apiKey).toMatch(/^sk-ant-oat01-access-/);
		expect((await runtime.getAuth("github-copilot"))?.auth.apiKey).toContain("proxy-ep=");
		const file = readJson(authPath);
		expect(file.anthropic.refresh).not.toBe("refresh-from-pi");
		expect(file.anthropic.expires).toBeGreaterThan(Date.now());
		// The refresh keeps the GitHub token and replaces Pi's model list with the seat's current one (as Pi's does).
		expect(file["github-copilot"]).toMatchObject({
			refresh: "gho_from-pi",
			availableModelIds: ["claude-haiku-4.5", "gpt-5.4-nano"],
		});
		expect(oauthServer.refreshCount).toBe(2);
	});

	it.each(refreshing.map(({ id }) => id))(
		"%s: a revoked sign-in says to sign in again and keeps the stored credential",
		async (providerId) => {
			const auth = expiredSignIns();
			const { runtime, authPath } = setup({ auth });
			oauthServer.revokeAll();
			await expect(runtime.getAuth(providerId)).rejects.toThrow(
				`OAuth refresh failed for ${providerId}: the sign-in was revoked or has expired; sign in again (/login or "auth login ${providerId}")`,
			);
			expect(readJson(authPath)[providerId]).toEqual(auth[providerId]);
		},
	);

	// One pair of processes for all sign-ins: each child compiles the sources (slow). Without the
	// auth-file lock both would send the refresh, so an endpoint would count 2 (a rotated token would also fail one).
	it("two processes racing refresh each sign-in once under the auth-file lock", { timeout: 180_000 }, async () => {
		const auth = expiredSignIns();
		const { authPath } = setup({ auth });
		let release!: () => void;
		oauthServer.holdRefreshes(new Promise<void>((resolve) => (release = resolve)));
		const sourceDir = fileURLToPath(new URL("../../src", import.meta.url));
		const aiSourceDir = fileURLToPath(new URL("../../../ai/src", import.meta.url));
		const script = fileURLToPath(new URL("./fixtures/subscription-racer.mjs", import.meta.url));
		const providerIds = refreshing.map(({ id }) => id);
		const run = async (): Promise<Record<string, string[]>> =>
			JSON.parse(
				await outputOf(
					process.execPath,
					["--import", "jiti/register", script, sourceDir, aiSourceDir, authPath, ...providerIds],
					{ env: { ...process.env, TAU_TEST_OAUTH_ORIGIN: oauthServer.origin } },
				),
			);
		const racers = Promise.all([run(), run()]);
		// Hold the first refresh until both processes are running, so the other must wait on the lock.
		await oauthServer.refreshRequested;
		release();
		const [first, second] = await racers;
		expect(Object.fromEntries(oauthServer.refreshRequests)).toEqual(
			Object.fromEntries(refreshing.map(({ endpoint }) => [endpoint, 1])),
		);
		const stored = readJson(authPath);
		for (const providerId of providerIds) {
			const keys = [...first![providerId]!, ...second![providerId]!];
			expect({ providerId, keys: new Set(keys).size }).toEqual({ providerId, keys: 1 });
			expect(keys[0]).not.toBe(auth[providerId]!.access);
			expect({ providerId, stored: stored[providerId].access }).toEqual({ providerId, stored: keys[0] });
		}
	});
});
