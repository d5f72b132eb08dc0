import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { createMcpAuthProvider, createMemoryOAuthStore, McpRefreshLockBusyError } from "@tau/mcp/oauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMcpCredentialStore, mcpAuthPath } from "../../../src/builtin/mcp/auth/credential-store.js";
import { refreshLockPath, withRefreshLockFile } from "../../../src/builtin/mcp/auth/refresh-lock.js";
import { type McpCliContext, runMcpCli } from "../../../src/builtin/mcp/index.js";
import { tempDir } from "../../support/isolated-session.js";
import { createMcpHarness, waitForTools, writeMcpJson } from "./harness.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

/** One local server playing MCP resource server and OAuth authorization server. */
async function oauthProtectedMcp() {
	let base = "";
	let issued = 0;
	const valid = new Set<string>();
	const tokenRequests: URLSearchParams[] = [];
	/** While set, token responses wait for it (the request is already recorded). */
	let tokenGate: Promise<void> | undefined;
	let onTokenRequest = () => {};
	/** When set, refresh grants are refused with this OAuth error code. */
	let refreshError: string | undefined;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const body = Buffer.concat(chunks).toString("utf8");
			const url = new URL(req.url ?? "/", base);
			const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
				res.writeHead(status, { "content-type": "application/json", ...headers });
				res.end(JSON.stringify(value));
			};
			if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
				return json(200, { resource: `${base}/mcp`, authorization_servers: [base] });
			}
			if (url.pathname === "/.well-known/oauth-authorization-server") {
				return json(200, {
					issuer: base,
					authorization_endpoint: `${base}/authorize`,
					token_endpoint: `${base}/token`,
					registration_endpoint: `${base}/register`,
					response_types_supported: ["code"],
					code_challenge_methods_supported: ["S256"],
				});
			}
			if (url.pathname === "/register") return json(201, { client_id: "tau-client", ...JSON.parse(body) });
			if (url.pathname === "/authorize") {
				// The "browser": approve at once and redirect back to tau's loopback listener.
				const redirect = new URL(url.searchParams.get("redirect_uri")!);
				redirect.searchParams.set("code", "code-1");
				redirect.searchParams.set("state", url.searchParams.get("state")!);
				res.writeHead(302, { location: redirect.href }).end();
				return;
			}
			if (url.pathname === "/token") {
				const form = new URLSearchParams(body);
				tokenRequests.push(form);
				onTokenRequest();
				if (refreshError && form.get("grant_type") === "refresh_token") {
					return json(400, { error: refreshError, error_description: "the refresh token expired" });
				}
				const answer = () => {
					const token = `at-${++issued}`;
					valid.clear();
					valid.add(token);
					json(200, { access_token: token, refresh_token: `rt-${issued}`, expires_in: 3600 });
				};
				if (tokenGate) void tokenGate.then(answer);
				else answer();
				return;
			}
			if (url.pathname === "/mcp" && req.method === "DELETE") return void res.writeHead(200).end();
			if (url.pathname === "/mcp") {
				const auth = req.headers.authorization?.replace(/^Bearer /, "");
				if (!auth || !valid.has(auth)) {
					return json(
						401,
						{},
						{ "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
					);
				}
				if (req.method !== "POST") return void res.writeHead(405).end();
				const rpc = JSON.parse(body) as { id?: number; method: string };
				if (rpc.id === undefined) return void res.writeHead(202).end();
				const result =
					rpc.method === "initialize"
						? {
								protocolVersion: "2025-11-25",
								capabilities: { tools: {} },
								serverInfo: { name: "secure", version: "1" },
							}
						: { tools: [{ name: "secret", inputSchema: {} }] };
				return json(200, { jsonrpc: "2.0", id: rpc.id, result }, { "mcp-session-id": "session-1" });
			}
			res.writeHead(404).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	closers.push(
		() =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	);
	return {
		base,
		url: `${base}/mcp`,
		tokenRequests,
		refuseRefreshes: (code: string) => {
			refreshError = code;
		},
		/** The server forgets every token, as after a revocation. */
		revokeTokens: () => valid.clear(),
		acceptToken: (token: string) => valid.add(token),
		holdTokenResponses(gate: Promise<void>) {
			tokenGate = gate;
		},
		nextTokenRequest: () =>
			new Promise<void>((resolve) => {
				onTokenRequest = resolve;
			}),
	};
}

function cliContext(agentDir: string, out: string[]): McpCliContext {
	return {
		cwd: tempDir("tau-mcp-oauth-cwd-"),
		agentDir,
		projectTrusted: false,
		env: process.env,
		stdout: (text) => out.push(text),
		stderr: (text) => out.push(text),
		// Plays the browser: follow the authorization redirect to the loopback callback.
		openUrl: async (url) => {
			const approve = await fetch(url, { redirect: "manual" });
			await fetch(approve.headers.get("location")!);
		},
	};
}

describe("OAuth through tau mcp", () => {
	it("list reports needs-auth; login signs in through the loopback callback and stores 0600 credentials; list then connects", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		const out: string[] = [];
		const ctx = cliContext(agentDir, out);
		expect(await runMcpCli(["list", "--json"], ctx)).toBe(1);
		expect(JSON.parse(out.join("")).servers[0]).toMatchObject({ state: "needs-auth" });
		out.length = 0;
		expect(await runMcpCli(["login", "secure"], ctx)).toBe(0);
		expect(out.join("")).toMatch(/Open this URL[\s\S]*\/authorize\?[\s\S]*Signed in to MCP server "secure"/);
		expect(statSync(mcpAuthPath(agentDir)).mode & 0o777).toBe(0o600);
		out.length = 0;
		expect(await runMcpCli(["list", "--json"], ctx)).toBe(0);
		expect(JSON.parse(out.join("")).servers[0]).toMatchObject({ state: "connected", tools: ["secret"] });
		expect(server.tokenRequests[0]!.get("resource")).toBe(server.url);
		out.length = 0;
		expect(await runMcpCli(["logout", "secure"], ctx)).toBe(0);
		expect(await runMcpCli(["list", "--json"], ctx)).toBe(1);
	});

	it("login also accepts the redirect URL pasted by the user (browser on another machine)", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		let landed: (url: string) => void = () => {};
		const pasted = new Promise<string>((resolve) => {
			landed = resolve;
		});
		const out: string[] = [];
		const ctx: McpCliContext = {
			...cliContext(agentDir, out),
			// The browser approves but cannot reach tau; the user copies the address it ended on.
			openUrl: async (url) => landed((await fetch(url, { redirect: "manual" })).headers.get("location")!),
			readPastedUrl: () => pasted,
		};
		expect(await runMcpCli(["login", "secure"], ctx)).toBe(0);
		expect(out.join("")).toMatch(/paste the address[\s\S]*Signed in/);
		expect(server.tokenRequests).toHaveLength(1);
	});

	it("login on a server that needs no sign-in, or uses an Authorization header, is not an OAuth sign-in", async () => {
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		const server = await oauthProtectedMcp();
		writeMcpJson(agentDir, { fixed: { url: server.url, headers: { Authorization: "Bearer wrong" } } });
		const out: string[] = [];
		expect(await runMcpCli(["login", "fixed"], cliContext(agentDir, out))).toBe(1);
		expect(out.join("")).toMatch(/does not use OAuth/);
	});
});

describe("failure reasons and pi's stored sign-ins", () => {
	it("a rejected configured Authorization header is reported as such, not as a missing sign-in", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { fixed: { url: server.url, headers: { Authorization: "Bearer wrong" } } });
		const out: string[] = [];
		expect(await runMcpCli(["list", "--json"], cliContext(agentDir, out))).toBe(1);
		expect(JSON.parse(out.join("")).servers[0]).toMatchObject({
			state: "failed",
			error: "The server rejected the configured Authorization header (HTTP 401)",
		});
	});

	it("a refresh the authorization server refuses leaves the server needing sign-in, with the OAuth error", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		const ctx = cliContext(agentDir, []);
		expect(await runMcpCli(["login", "secure"], ctx)).toBe(0);
		server.revokeTokens();
		server.refuseRefreshes("invalid_grant");
		const out: string[] = [];
		expect(await runMcpCli(["list", "--json"], { ...ctx, stdout: (text) => out.push(text) })).toBe(1);
		const listed = JSON.parse(out.join("")).servers[0] as { state: string; error: string };
		expect(listed.state).toBe("needs-auth");
		expect(listed.error).toMatch(/Refreshing the token failed: invalid_grant: the refresh token expired/);
	});

	it("tokens pi 1.6 stored in mcp-auth.json (its discovery shape) are refreshed when the server rejects them", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		// An entry as pi 1.6 writes it (McpOAuthState of @earendil-works/pi-mcp), under the key both use.
		writeFileSync(
			mcpAuthPath(agentDir),
			JSON.stringify({
				[`mcp__secure|${server.url}`]: {
					serverUrl: server.url,
					clientInformation: { client_id: "tau-client", redirect_uris: ["http://127.0.0.1:1/callback"] },
					tokens: {
						access_token: "pi-token",
						token_type: "Bearer",
						refresh_token: "pi-refresh",
						expires_in: 3600,
					},
					tokensExpireAt: Date.now() + 3_600_000,
					discovery: {
						authorizationServerUrl: server.base,
						authorizationServerMetadata: {
							issuer: server.base,
							authorization_endpoint: `${server.base}/authorize`,
							token_endpoint: `${server.base}/token`,
							response_types_supported: ["code"],
						},
						resourceMetadata: { resource: server.url, authorization_servers: [server.base] },
						resourceMetadataUrl: `${server.base}/.well-known/oauth-protected-resource/mcp`,
					},
				},
			}),
			{ mode: 0o600 },
		);
		const out: string[] = [];
		expect(
			await runMcpCli(["list", "--json"], { ...cliContext(agentDir, out), stdout: (text) => out.push(text) }),
		).toBe(0);
		expect(JSON.parse(out.join("")).servers[0]).toMatchObject({ state: "connected", tools: ["secret"] });
		const refresh = server.tokenRequests.find((form) => form.get("grant_type") === "refresh_token");
		expect(refresh?.get("refresh_token")).toBe("pi-refresh");
		expect(refresh?.get("resource")).toBe(server.url);
	});
});

describe("OAuth in a session", () => {
	it("a needs-auth server reconnects on the next turn after tau mcp login ran elsewhere", async () => {
		const server = await oauthProtectedMcp();
		const h = await createMcpHarness({ secure: { url: server.url, exposure: "direct" } });
		try {
			await vi.waitFor(() => expect(h.notifications.some((n) => /needs sign-in/.test(n.message))).toBe(true));
			expect(await runMcpCli(["login", "secure"], cliContext(h.mcpAgentDir, []))).toBe(0);
			h.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
			await h.session.prompt("first");
			await waitForTools(h, "mcp__secure__secret");
			await h.session.prompt("second");
			expect(h.declared[1]).toContain("mcp__secure__secret");
		} finally {
			await h.session.shutdown();
		}
	});
});

describe("SDK options", () => {
	it("credentials replaces mcp-auth.json: a store holding a valid token connects without sign-in", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		// Sign in once through the CLI to obtain a token the server accepts, then hand it over in memory.
		expect(await runMcpCli(["login", "secure"], cliContext(agentDir, []))).toBe(0);
		const stored = await createMcpCredentialStore(agentDir, "mcp__secure", server.url).load();
		const memory = createMemoryOAuthStore(stored);
		const h = await createMcpHarness({ secure: { url: server.url } }, { mcp: { credentials: () => memory } });
		try {
			await waitForTools(h, "mcp__secure__secret");
		} finally {
			await h.session.shutdown();
		}
	});
});

describe("session shutdown", () => {
	it("waits for a token refresh already sent and saves its answer", async () => {
		const server = await oauthProtectedMcp();
		server.acceptToken("at-0");
		const memory = createMemoryOAuthStore({
			serverUrl: server.url,
			clientInformation: { client_id: "tau-client" },
			tokens: { access_token: "at-0", refresh_token: "rt-0" },
		});
		const h = await createMcpHarness(
			{ secure: { url: server.url, exposure: "direct" } },
			{ mcp: { credentials: () => memory } },
		);
		await waitForTools(h, "mcp__secure__secret");
		// The next call is rejected with 401; its refresh is answered only once shutdown closed the transport.
		// The transport's close event is the trigger, not the server seeing the session DELETE: that DELETE is
		// best effort with a short timeout and may never arrive on a loaded machine.
		server.revokeTokens();
		let release = () => {};
		server.holdTokenResponses(
			new Promise<void>((resolve) => {
				release = resolve;
			}),
		);
		expect(h.transports).toHaveLength(1);
		h.transports[0]!.onClose(() => release());
		const refreshSent = server.nextTokenRequest();
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("mcp__secure__secret", {}, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		const running = h.session.prompt("call it").catch(() => undefined);
		await refreshSent;
		await h.session.shutdown();
		expect((await memory.load())?.tokens).toMatchObject({ access_token: "at-1", refresh_token: "rt-1" });
		await running;
	});
});

describe("mcp-auth.json", () => {
	it("keys credentials by namespace and URL, migrates a legacy URL-only key, and keeps the file private", async () => {
		const agentDir = tempDir("tau-mcp-store-");
		writeFileSync(
			mcpAuthPath(agentDir),
			JSON.stringify({
				"https://x.example/mcp": { serverUrl: "https://x.example/mcp", tokens: { access_token: "old" } },
			}),
			{ mode: 0o600 },
		);
		const docs = createMcpCredentialStore(agentDir, "mcp__docs", "https://x.example/mcp#frag");
		expect((await docs.load())?.tokens?.access_token).toBe("old");
		const other = createMcpCredentialStore(agentDir, "mcp__other", "https://x.example/mcp");
		expect(await other.load()).toBeUndefined();
		await other.save({ serverUrl: "https://x.example/mcp", tokens: { access_token: "new" } });
		const file = JSON.parse(readFileSync(mcpAuthPath(agentDir), "utf8")) as Record<string, unknown>;
		expect(Object.keys(file).sort()).toEqual(["mcp__docs|https://x.example/mcp", "mcp__other|https://x.example/mcp"]);
		expect(statSync(mcpAuthPath(agentDir)).mode & 0o777).toBe(0o600);
	});
});

describe("refresh lock", () => {
	it("two processes refreshing one server send one refresh request", async () => {
		const server = await oauthProtectedMcp();
		const agentDir = tempDir("tau-mcp-oauth-agent-");
		writeMcpJson(agentDir, { secure: { url: server.url } });
		const ctx = cliContext(agentDir, []);
		expect(await runMcpCli(["login", "secure"], ctx)).toBe(0);
		const provider = () =>
			createMcpAuthProvider({
				serverUrl: server.url,
				// Separate store objects share only the files, like two tau processes.
				store: createMcpCredentialStore(agentDir, "mcp__secure", server.url, { stepMs: 5 }),
				settings: () => ({}),
			});
		const [a, b] = [provider(), provider()];
		const rejected = await a.token();
		const response = () => new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
		const context = { serverUrl: new URL(server.url), fetch, token: rejected! };
		await Promise.all([
			a.onUnauthorized!({ ...context, response: response() }),
			b.onUnauthorized!({ ...context, response: response() }),
		]);
		expect(server.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token")).toHaveLength(1);
		expect(await b.token()).not.toBe(rejected);
	});

	it("a killed holder's lock is taken over once stale; a live one makes the waiter give up busy", async () => {
		const agentDir = tempDir("tau-mcp-lock-");
		const path = refreshLockPath(agentDir, "mcp__x|https://x/");
		writeFileSync(path, "12345");
		const old = new Date(Date.now() - 60_000);
		utimesSync(path, old, old);
		expect(await withRefreshLockFile(path, async () => "ran", { staleMs: 1000 })).toBe("ran");
		writeFileSync(path, "67890");
		await expect(
			withRefreshLockFile(path, async () => "never", { staleMs: 60_000, waitMs: 0 }),
		).rejects.toBeInstanceOf(McpRefreshLockBusyError);
	});
});
