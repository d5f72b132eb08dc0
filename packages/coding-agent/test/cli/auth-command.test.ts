import { existsSync } from "node:fs";
import { join } from "node:path";
import type { OAuthAuth, OAuthCredential, Provider } from "@tau/ai";
import { startMockOAuthServer } from "@tau/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AuthCommandOptions, parseMinExpiry } from "../../src/cli/auth-command.js";
import { createTerminalInteraction } from "../../src/cli/terminal-interaction.js";
import { readJson, tempDirs, writeJson, writeText } from "../config/helpers.js";
import { fakeOAuth, recordingProvider } from "../config/runtime-fixtures.js";
import { runAuth as run, scriptedTerminal } from "./scripted-terminal.js";

const HOUR = 3_600_000;
const KEY_VAR = "TAU_AUTH_TEST_KEY";

afterEach(() => {
	vi.unstubAllEnvs();
});

/** An agent dir and a catalog of one key provider (`keyed`, env `TAU_AUTH_TEST_KEY`) and one OAuth provider. */
function setup(oauth: OAuthAuth = fakeOAuth(async (credential) => credential)) {
	const { agentDir } = tempDirs();
	const providers: Provider[] = [
		recordingProvider("keyed", { envVars: [KEY_VAR] }).provider,
		recordingProvider("codex", { oauth }).provider,
	];
	const authPath = join(agentDir, "auth.json");
	return { agentDir, authPath, options: { agentDir, providers, terminal: null } satisfies AuthCommandOptions };
}

function oauthCredential(expires: number, extra: Record<string, unknown> = {}): OAuthCredential {
	return { type: "oauth", access: "access-1", refresh: "refresh-1", expires, ...extra };
}

function refreshing() {
	const calls: OAuthCredential[] = [];
	const oauth = fakeOAuth(async (credential) => {
		calls.push(credential);
		return { ...credential, access: "access-2", refresh: "refresh-2", expires: Date.now() + HOUR };
	});
	return { oauth, calls };
}

describe("tau auth: usage", () => {
	it("prints usage for --help and <command> --help with exit 0", async () => {
		const { options } = setup();
		const all = await run(["--help"], options);
		expect(all.code).toBe(0);
		for (const command of ["login", "logout", "check", "print-api-key", "print-bearer-token"]) {
			expect(all.stdout).toContain(`tau auth ${command}`);
		}
		const one = await run(["check", "--help"], options);
		expect(one).toMatchObject({ code: 0, stderr: "" });
		expect(one.stdout).toMatch(/^Usage: tau auth check /);
	});

	it("rejects an unknown option with exit 1, also for check", async () => {
		const { options } = setup();
		const result = await run(["check", "--provider", "keyed", "--bogus"], options);
		expect(result.code).toBe(1);
		expect(result.stderr.split("\n")[0]).toBe('Unknown option --bogus for "auth check".');
		expect(result.stdout).toBe("");
		expect((await run(["logout", "keyed", "-x"], options)).stderr).toContain('Unknown option -x for "auth logout".');
	});

	it("reports other usage errors as Error: with exit 1, and 2 for check", async () => {
		const { options } = setup();
		const missing = await run(["check"], options);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toMatch(/^Error: --provider or --model is required\n/);
		expect((await run(["print-api-key"], options)).code).toBe(1);
		expect((await run(["logout"], options)).stderr).toMatch(/^Error: Missing <provider>/);
		const credentials = await run(["check", "--provider", "keyed", "--credentials"], options);
		expect(credentials.code).toBe(2);
		expect(credentials.stderr).toContain("--credentials requires --json");
		const unknown = await run(["frobnicate"], options);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toMatch(/^Error: Unknown auth command "frobnicate"/);
	});

	it("parses --min-expiry durations", () => {
		expect(parseMinExpiry("30m")).toBe(30 * 60_000);
		expect(parseMinExpiry("2h")).toBe(2 * HOUR);
		expect(parseMinExpiry("90")).toBe(90_000);
		expect(() => parseMinExpiry("soon")).toThrow('Invalid --min-expiry "soon"');
	});
});

describe("tau auth check", () => {
	it("is not_ready (exit 1) without any credential source", async () => {
		const { options } = setup();
		const result = await run(["check", "--provider", "keyed"], options);
		expect(result).toMatchObject({ code: 1, stdout: "not_ready\n" });
		expect(result.stderr).toContain('No credentials for "keyed"');
		const json = await run(["check", "--provider", "keyed", "--json"], options);
		expect(JSON.parse(json.stdout)).toMatchObject({ status: "not_ready", provider: "keyed" });
	});

	it("is ready (exit 0) from the environment; credentials only with --credentials", async () => {
		vi.stubEnv(KEY_VAR, "env-key");
		const { options } = setup();
		expect(await run(["check", "--provider", "keyed"], options)).toMatchObject({ code: 0, stdout: "ready\n" });
		const plain = JSON.parse((await run(["check", "--provider", "keyed", "--json"], options)).stdout);
		expect(plain).toEqual({ status: "ready", provider: "keyed" });
		const full = await run(["check", "--provider", "keyed", "--json", "--credentials"], options);
		expect(JSON.parse(full.stdout)).toEqual({
			status: "ready",
			provider: "keyed",
			credentials: { source: KEY_VAR, apiKey: "env-key" },
		});
	});

	it("resolves --model to its provider and rejects unknown providers and models as invalid (exit 2)", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: { type: "api_key", key: "stored-key" } });
		const byModel = await run(["check", "--model", "keyed/keyed-model", "--json"], options);
		expect(byModel.code).toBe(0);
		expect(JSON.parse(byModel.stdout)).toMatchObject({ status: "ready", provider: "keyed" });
		expect((await run(["check", "--model", "keyed-model"], options)).code).toBe(0);
		const provider = await run(["check", "--provider", "nope", "--json"], options);
		expect(provider.code).toBe(2);
		expect(JSON.parse(provider.stdout)).toEqual({
			status: "invalid",
			provider: "nope",
			reason: 'Unknown provider "nope"',
		});
		const model = await run(["check", "--model", "no-such-model"], options);
		expect(model).toMatchObject({ code: 2, stdout: "invalid\n" });
		expect(model.stderr).toContain('Model "no-such-model" not found');
	});

	it("is invalid when a stored $VAR or !command key does not resolve, even with an env fallback", async () => {
		vi.stubEnv(KEY_VAR, "env-key");
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: { type: "api_key", key: "$TAU_AUTH_TEST_UNSET" } });
		const env = await run(["check", "--provider", "keyed", "--json"], options);
		expect(env.code).toBe(2);
		expect(JSON.parse(env.stdout).reason).toContain("environment variable: TAU_AUTH_TEST_UNSET");
		writeJson(authPath, { keyed: { type: "api_key", key: "!exit 3 # auth-check-invalid" } });
		const command = await run(["check", "--provider", "keyed", "--json"], options);
		expect(command.code).toBe(2);
		expect(JSON.parse(command.stdout).reason).toContain("from shell command: exit 3 # auth-check-invalid");
	});

	it("resolves a stored reference and uses the credential's env overlay", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: { type: "api_key", key: "pre-$MY_KEY", env: { MY_KEY: "overlay" } } });
		const result = await run(["check", "--provider", "keyed", "--json", "--credentials"], options);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout).credentials.apiKey).toBe("pre-overlay");
	});

	it("is invalid for a broken auth.json, with and without --no-refresh", async () => {
		const { options, authPath } = setup();
		writeText(authPath, "{ not json");
		for (const extra of [[], ["--no-refresh"]]) {
			const result = await run(["check", "--provider", "keyed", ...extra], options);
			expect(result).toMatchObject({ code: 2, stdout: "invalid\n" });
			expect(result.stderr).toContain(`Cannot use ${authPath}`);
		}
		writeJson(authPath, { codex: { type: "oauth", access: "a", expires: 1 } });
		const structure = await run(["check", "--provider", "codex"], options);
		expect(structure.code).toBe(2);
		expect(structure.stderr).toContain('Invalid auth.json credential for provider "codex"');
	});

	it("is invalid for a stored credential type the provider does not support", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: oauthCredential(Date.now() + HOUR) });
		const result = await run(["check", "--provider", "keyed"], options);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("does not support");
	});

	it("refreshes an expired OAuth token and persists it", async () => {
		const { oauth, calls } = refreshing();
		const { options, authPath } = setup(oauth);
		writeJson(authPath, { codex: oauthCredential(Date.now() - 1000, { accountId: "acct" }) });
		const result = await run(["check", "--provider", "codex", "--json", "--credentials"], options);
		expect(result.code).toBe(0);
		expect(calls).toHaveLength(1);
		const report = JSON.parse(result.stdout);
		expect(report.credentials).toMatchObject({ source: "OAuth", apiKey: "access-2" });
		expect(report.credentials.expires).toBeGreaterThan(Date.now());
		expect(readJson(authPath).codex).toMatchObject({ access: "access-2", refresh: "refresh-2", accountId: "acct" });
	});

	it("with --no-refresh never refreshes or writes: expired is not_ready, valid is ready", async () => {
		const { oauth, calls } = refreshing();
		const { options, authPath } = setup(oauth);
		writeJson(authPath, { codex: oauthCredential(Date.now() - 1000) });
		const expired = await run(["check", "--provider", "codex", "--no-refresh"], options);
		expect(expired).toMatchObject({ code: 1, stdout: "not_ready\n" });
		expect(expired.stderr).toContain("--no-refresh");
		// Expiring within the refresh margin but not yet expired: usable as is, still no refresh.
		writeJson(authPath, { codex: oauthCredential(Date.now() + 60_000) });
		const soon = await run(["check", "--provider", "codex", "--no-refresh", "--json", "--credentials"], options);
		expect(soon.code).toBe(0);
		expect(JSON.parse(soon.stdout).credentials.apiKey).toBe("access-1");
		expect(calls).toHaveLength(0);
		expect(readJson(authPath).codex.access).toBe("access-1");
	});

	it("with --no-refresh does not create auth.json and still resolves key references", async () => {
		vi.stubEnv("TAU_AUTH_TEST_REF", "from-ref");
		const { options, authPath, agentDir } = setup();
		expect((await run(["check", "--provider", "keyed", "--no-refresh"], options)).code).toBe(1);
		expect(existsSync(authPath)).toBe(false);
		writeJson(join(agentDir, "auth.json"), { keyed: { type: "api_key", key: "$TAU_AUTH_TEST_REF" } });
		const result = await run(["check", "--provider", "keyed", "--no-refresh", "--json", "--credentials"], options);
		expect(JSON.parse(result.stdout).credentials.apiKey).toBe("from-ref");
	});

	it("is invalid when the OAuth refresh fails", async () => {
		const oauth = fakeOAuth(async () => {
			throw new Error("invalid_grant");
		});
		const { options, authPath } = setup(oauth);
		writeJson(authPath, { codex: oauthCredential(Date.now() - 1000) });
		const result = await run(["check", "--provider", "codex", "--json"], options);
		expect(result.code).toBe(2);
		expect(JSON.parse(result.stdout).reason).toBe("OAuth refresh failed for codex: invalid_grant");
	});
});

describe("tau auth print-api-key / print-bearer-token", () => {
	it("prints only the resolved key on stdout", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: { type: "api_key", key: "literal$$key" } });
		expect(await run(["print-api-key", "--provider", "keyed"], options)).toEqual({
			code: 0,
			stdout: "literal$key\n",
			stderr: "",
		});
	});

	it("fails with Error: and an empty stdout when nothing is configured", async () => {
		const { options } = setup();
		const result = await run(["print-api-key", "--model", "keyed-model"], options);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^Error: No credentials for "keyed"/);
	});

	it("prints the OAuth access token, refreshed only when it expires within --min-expiry", async () => {
		const { oauth, calls } = refreshing();
		const { options, authPath } = setup(oauth);
		writeJson(authPath, { codex: oauthCredential(Date.now() + 10 * 60_000) });
		expect(await run(["print-bearer-token", "--provider", "codex"], options)).toEqual({
			code: 0,
			stdout: "access-1\n",
			stderr: "",
		});
		expect(calls).toHaveLength(0);
		const refreshed = await run(["print-bearer-token", "--provider", "codex", "--min-expiry", "30m"], options);
		expect(refreshed).toEqual({ code: 0, stdout: "access-2\n", stderr: "" });
		expect(calls).toHaveLength(1);
		expect(readJson(authPath).codex.access).toBe("access-2");
	});

	it("refuses a bearer token for a provider without an OAuth login, and a bad --min-expiry", async () => {
		vi.stubEnv(KEY_VAR, "env-key");
		const { options } = setup();
		const keyed = await run(["print-bearer-token", "--provider", "keyed"], options);
		expect(keyed.code).toBe(1);
		expect(keyed.stdout).toBe("");
		expect(keyed.stderr).toContain("has no OAuth login");
		const bad = await run(["print-bearer-token", "--provider", "keyed", "--min-expiry", "later"], options);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain('Invalid --min-expiry "later"');
	});
});

describe("tau auth logout", () => {
	it("removes the stored credential and keeps the others", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { keyed: { type: "api_key", key: "k" }, codex: oauthCredential(Date.now() + HOUR) });
		const result = await run(["logout", "keyed"], options);
		expect(result).toMatchObject({ code: 0, stdout: "Logged out of KEYED (keyed).\n" });
		expect(Object.keys(readJson(authPath))).toEqual(["codex"]);
	});

	it("exits 0 when nothing was stored, also for an unknown provider id", async () => {
		const { options } = setup();
		expect(await run(["logout", "keyed"], options)).toMatchObject({
			code: 0,
			stdout: "No stored credentials for keyed.\n",
		});
		expect((await run(["logout", "gone-provider"], options)).code).toBe(0);
	});

	it("removes an entry of a provider that no longer exists", async () => {
		const { options, authPath } = setup();
		writeJson(authPath, { "gone-provider": { type: "api_key", key: "k" } });
		expect((await run(["logout", "gone-provider"], options)).code).toBe(0);
		expect(readJson(authPath)).toEqual({});
	});
});

describe("tau auth login", () => {
	it("needs an interactive terminal", async () => {
		const { options, authPath } = setup();
		const result = await run(["login", "keyed", "--api-key"], options);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: "tau auth login" needs an interactive terminal/);
		expect(existsSync(authPath)).toBe(false);
	});

	it("rejects --api-key with --no-browser and an unknown provider", async () => {
		const { options } = setup();
		const terminal = scriptedTerminal([]);
		const both = await run(["login", "codex", "--api-key", "--no-browser"], { ...options, terminal });
		expect(both.code).toBe(1);
		expect(both.stderr).toContain("--api-key and --no-browser cannot be used together");
		const unknown = await run(["login", "nope"], { ...options, terminal });
		expect(unknown.stderr).toBe('Error: Unknown provider "nope"\n');
	});

	it("--api-key reads the key without echo and stores it escaped", async () => {
		const { options, authPath } = setup();
		const terminal = scriptedTerminal(["sk-$x!\r"]);
		const result = await run(["login", "keyed", "--api-key"], { ...options, terminal });
		expect(result).toMatchObject({ code: 0, stdout: "Logged in to KEYED (keyed).\n" });
		expect(readJson(authPath).keyed).toEqual({ type: "api_key", key: "sk-$$x!" });
		expect(terminal.written()).toContain("(input hidden)");
		expect(terminal.written()).not.toContain("sk-");
		expect(terminal.input.rawModes).toEqual([true, false]);
		expect((await run(["print-api-key", "--provider", "keyed"], options)).stdout).toBe("sk-$x!\n");
	});

	it("Ctrl+C in a prompt aborts the login and stores nothing", async () => {
		const { options, authPath } = setup();
		const terminal = scriptedTerminal(["sk-par\u0003"]);
		const result = await run(["login", "keyed", "--api-key"], { ...options, terminal });
		expect(result).toEqual({ code: 1, stdout: "", stderr: "Error: Login cancelled\n" });
		expect(existsSync(authPath) ? readJson(authPath) : {}).toEqual({});
		expect(terminal.input.isRaw).toBe(false);
	});

	it("runs the provider's OAuth flow, opening the URL unless --no-browser", async () => {
		const flow = (signalSeen: AbortSignal[]): OAuthAuth => ({
			...fakeOAuth(async (credential) => credential),
			login: async (interaction) => {
				if (interaction.signal) signalSeen.push(interaction.signal);
				await interaction.notify({ type: "auth_url", url: "https://auth.example/start" });
				const code = await interaction.prompt({ type: "manual_code", message: "Paste the code" });
				return oauthCredential(Date.now() + HOUR, { access: `access-${code}` });
			},
		});
		const signals: AbortSignal[] = [];
		const { options, authPath } = setup(flow(signals));
		const opened: string[] = [];
		const terminal = scriptedTerminal(["abc\r"]);
		const result = await run(["login", "codex"], { ...options, terminal, openUrl: (url) => opened.push(url) });
		expect(result).toMatchObject({ code: 0, stdout: "Logged in to CODEX (codex).\n" });
		expect(opened).toEqual(["https://auth.example/start"]);
		expect(terminal.written()).toContain("https://auth.example/start");
		expect(terminal.written()).toContain("Paste the code: abc");
		expect(readJson(authPath).codex).toMatchObject({ type: "oauth", access: "access-abc" });
		expect(signals[0]?.aborted).toBe(false);

		const again = scriptedTerminal(["xyz\r"]);
		const noBrowser = await run(["login", "codex", "--no-browser"], {
			...options,
			terminal: again,
			openUrl: (url) => opened.push(url),
		});
		expect(noBrowser.code).toBe(0);
		expect(opened).toHaveLength(1);
		expect(again.written()).toContain("https://auth.example/start");
	});

	it("signs in to Claude in the browser; the paste prompt is withdrawn and the keyboard released", async () => {
		const oauthServer = await startMockOAuthServer();
		vi.stubEnv("TAU_TEST_OAUTH_ORIGIN", oauthServer.origin);
		try {
			const { agentDir, authPath } = setup();
			const terminal = scriptedTerminal(["1\r"]);
			const browser: Promise<Response>[] = [];
			const result = await run(["login", "anthropic"], {
				agentDir,
				terminal,
				openUrl: (url) => browser.push(fetch(url)),
			});
			expect(result).toMatchObject({ code: 0, stdout: "Logged in to Anthropic (anthropic).\n" });
			expect((await browser[0])?.status).toBe(200);
			expect(terminal.written()).toContain("Paste the authorization code or the final redirect URL: ");
			expect(terminal.input.listenerCount("data")).toBe(0);
			expect(terminal.input.isRaw).toBe(false);
			expect(readJson(authPath).anthropic).toMatchObject({
				type: "oauth",
				access: expect.stringMatching(/^sk-ant-oat/),
			});
		} finally {
			await oauthServer.close();
		}
	});

	it("--no-browser needs a provider with account sign-in", async () => {
		const { options } = setup();
		const result = await run(["login", "keyed", "--no-browser"], { ...options, terminal: scriptedTerminal([]) });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("has no account sign-in");
	});
});

describe("terminal interaction", () => {
	it("reads a secret in raw mode without echo, with backspace editing, and restores the mode", async () => {
		const terminal = scriptedTerminal(["hunter2\u007f3\r"]);
		const interaction = createTerminalInteraction({ ...terminal, controller: new AbortController() });
		await expect(interaction.prompt({ type: "secret", message: "Key" })).resolves.toBe("hunter3");
		expect(terminal.written()).toBe("Key (input hidden): \n");
		expect(terminal.input.rawModes).toEqual([true, false]);
		expect(terminal.input.listenerCount("data")).toBe(0);
	});

	it("echoes text, applies defaults, ignores arrow keys and picks select options by number", async () => {
		const terminal = scriptedTerminal(["ab\u001b[Dc\r", "\r", "7\r", "2\r"]);
		const interaction = createTerminalInteraction({ ...terminal, controller: new AbortController() });
		await expect(interaction.prompt({ type: "text", message: "Name" })).resolves.toBe("abc");
		await expect(interaction.prompt({ type: "text", message: "Region", default: "eu" })).resolves.toBe("eu");
		const choice = interaction.prompt({
			type: "select",
			message: "Method",
			options: [
				{ value: "browser", label: "Browser" },
				{ value: "device", label: "Device code", hint: "for SSH" },
			],
		});
		await expect(choice).resolves.toBe("device");
		expect(terminal.written()).toContain("Name: abc\n");
		expect(terminal.written()).toContain("Region [eu]: \n");
		expect(terminal.written()).toContain("2. Device code — for SSH");
		expect(terminal.written()).toContain("Not an option: 7");
	});

	it("Ctrl+C aborts the signal the login flow sees", async () => {
		const terminal = scriptedTerminal(["\u0003"]);
		const controller = new AbortController();
		const interaction = createTerminalInteraction({ ...terminal, controller });
		await expect(interaction.prompt({ type: "secret", message: "Key" })).rejects.toThrow("Login cancelled");
		expect(interaction.signal?.aborted).toBe(true);
	});

	it("shows device codes and progress messages", () => {
		const terminal = scriptedTerminal([]);
		const interaction = createTerminalInteraction({ ...terminal, controller: new AbortController() });
		interaction.notify({ type: "device_code", code: "ABCD-1234", url: "https://example.test/device" });
		interaction.notify({ type: "progress", message: "Waiting for approval…" });
		expect(terminal.written()).toBe(
			"Enter this code: ABCD-1234\n  at https://example.test/device\nWaiting for approval…\n",
		);
	});
});
