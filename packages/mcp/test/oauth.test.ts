import { createHash } from "node:crypto";
import {
	completeMcpSignIn,
	createMcpAuthProvider,
	createMemoryOAuthStore,
	discoverMcpOAuth,
	documentsListRedirect,
	McpOAuthAuthorizationRequiredError,
	type McpSignInOptions,
	metadataDocumentCallbackId,
	OAuthInsecureEndpointError,
	OAuthIssuerMismatchError,
	parseWwwAuthenticate,
	refreshMcpTokens,
	responseFromRedirectUrl,
	startMcpSignIn,
	stepUpScope,
} from "@tau/mcp/oauth";
import { afterEach, describe, expect, it } from "vitest";
import { asMetadata, startOAuthServer } from "./support/oauth-server.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
});
async function serve(...args: Parameters<typeof startOAuthServer>) {
	const server = await startOAuthServer(...args);
	servers.push(server);
	return server;
}

describe("WWW-Authenticate", () => {
	it("parses Bearer challenges; ignores other schemes and invalid metadata URLs", () => {
		expect(
			parseWwwAuthenticate(
				'Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b", error="insufficient_scope"',
			),
		).toEqual({
			scheme: "Bearer",
			resourceMetadata: new URL("https://x/.well-known/oauth-protected-resource"),
			scope: "a b",
			error: "insufficient_scope",
		});
		expect(parseWwwAuthenticate('Basic realm="x"')).toBeUndefined();
		expect(parseWwwAuthenticate('Bearer resource_metadata="not a url", scope=""')).toEqual({ scheme: "Bearer" });
		expect(stepUpScope("read", undefined)).toBeUndefined();
		expect(stepUpScope("read write", "write admin", "base")).toBe("base read write admin");
	});
});

describe("pasted redirect URLs", () => {
	const expected = { redirectUrl: "http://127.0.0.1:8765/callback", state: "s1" };
	it("accepts the callback URL with code, state and iss; rejects foreign targets, states, errors and empty input", () => {
		expect(
			responseFromRedirectUrl(" http://127.0.0.1:8765/callback?code=c&state=s1&iss=https%3A%2F%2Fas ", expected),
		).toEqual({
			code: "c",
			state: "s1",
			iss: "https://as",
		});
		expect(() => responseFromRedirectUrl("http://127.0.0.1:9999/callback?code=c&state=s1", expected)).toThrow(
			/does not go to/,
		);
		expect(() => responseFromRedirectUrl("http://127.0.0.1:8765/callback?code=c&state=other", expected)).toThrow(
			/state/,
		);
		expect(() =>
			responseFromRedirectUrl("http://127.0.0.1:8765/callback?error=access_denied&state=s1", expected),
		).toThrow(/access_denied/);
		expect(() => responseFromRedirectUrl("  ", expected)).toThrow(/cancelled/);
	});
});

describe("discovery", () => {
	it("falls back from the path PRM to the root one, then tries oauth, oidc and path oidc metadata in order", async () => {
		const as = await serve({
			"/.well-known/openid-configuration/tenant": () => ({ status: 404 }),
			"/tenant/.well-known/openid-configuration": (_r, base) => ({ json: asMetadata(`${base}/tenant`) }),
		});
		const rs = await serve({
			"/.well-known/oauth-protected-resource": (_r, base) => ({
				json: { resource: `${base}/mcp`, authorization_servers: [`${as.base}/tenant`], scopes_supported: ["read"] },
			}),
		});
		const discovery = await discoverMcpOAuth(`${rs.base}/mcp`, { fetch });
		expect(rs.paths()).toEqual([
			"GET /.well-known/oauth-protected-resource/mcp",
			"GET /.well-known/oauth-protected-resource",
		]);
		expect(as.paths()).toEqual([
			"GET /.well-known/oauth-authorization-server/tenant",
			"GET /.well-known/openid-configuration/tenant",
			"GET /tenant/.well-known/openid-configuration",
		]);
		expect(discovery).toMatchObject({
			resource: `${rs.base}/mcp`,
			authorizationServer: `${as.base}/tenant`,
			scopesSupported: ["read"],
		});
		expect(rs.requests[0]!.headers["mcp-protocol-version"]).toBeDefined();
	});

	it("a challenge's resource_metadata is used without fallback; PRM failure means the server origin is the AS", async () => {
		const rs = await serve({
			"/.well-known/oauth-authorization-server": (_r, base) => ({ json: asMetadata(base) }),
		});
		const discovery = await discoverMcpOAuth(`${rs.base}/mcp`, {
			fetch,
			challenge: { scheme: "Bearer", resourceMetadata: new URL(`${rs.base}/custom-prm`) },
		});
		expect(rs.paths()[0]).toBe("GET /custom-prm");
		expect(rs.paths()).not.toContain("GET /.well-known/oauth-protected-resource");
		expect(discovery.authorizationServer).toBe(rs.base);
		expect(discovery.metadata?.token_endpoint).toBe(`${rs.base}/token`);
	});

	it("rejects an issuer mismatch, a file: endpoint and a foreign-origin resource; a configured metadata URL skips the issuer check", async () => {
		const wrongIssuer = await serve({
			"/.well-known/oauth-authorization-server": () => ({ json: asMetadata("https://evil.example") }),
		});
		await expect(discoverMcpOAuth(`${wrongIssuer.base}/mcp`, { fetch })).rejects.toBeInstanceOf(
			OAuthIssuerMismatchError,
		);
		const fileEndpoint = await serve({
			"/.well-known/oauth-authorization-server": (_r, base) => ({
				json: asMetadata(base, { authorization_endpoint: "file:///etc/passwd" }),
			}),
		});
		await expect(discoverMcpOAuth(`${fileEndpoint.base}/mcp`, { fetch })).rejects.toBeInstanceOf(
			OAuthInsecureEndpointError,
		);
		const foreign = await serve({
			"/.well-known/oauth-protected-resource/mcp": () => ({ json: { resource: "https://other.example/mcp" } }),
		});
		await expect(discoverMcpOAuth(`${foreign.base}/mcp`, { fetch })).rejects.toThrow(/does not cover/);
		const configured = await serve({ "/meta": () => ({ json: asMetadata("https://elsewhere.example") }) });
		const discovery = await discoverMcpOAuth(`${configured.base}/mcp`, {
			fetch,
			authServerMetadataUrl: `${configured.base}/meta`,
		});
		expect(discovery.metadata?.issuer).toBe("https://elsewhere.example");
	});
});

async function authorizationServer(
	metadataExtra: Record<string, unknown> = {},
	tokenAnswer?: (form: URLSearchParams) => { status?: number; json: unknown },
) {
	return serve({
		"/.well-known/oauth-protected-resource/mcp": (_r, base) => ({
			json: { resource: `${base}/mcp`, authorization_servers: [base] },
		}),
		"/.well-known/oauth-authorization-server": (_r, base) => ({ json: asMetadata(base, metadataExtra) }),
		"POST /register": (request) => ({ status: 201, json: { client_id: "registered", ...JSON.parse(request.body) } }),
		"POST /token": (request) =>
			tokenAnswer?.(request.form) ?? {
				json: { access_token: "at-1", refresh_token: "rt-1", expires_in: 3600, token_type: "Bearer" },
			},
	});
}

function signInOptions(serverUrl: string, extra: Partial<McpSignInOptions> = {}): McpSignInOptions {
	return {
		serverUrl,
		store: createMemoryOAuthStore(),
		settings: {},
		redirectUrl: "http://127.0.0.1:8765/callback",
		fetch,
		...extra,
	};
}

describe("sign-in", () => {
	it("registers a native client, sends an S256 challenge matching the exchanged verifier and resource in both requests", async () => {
		const as = await authorizationServer();
		const options = signInOptions(`${as.base}/mcp`, {
			settings: { scope: "read offline_access", clientName: "My tau" },
		});
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		const register = as.requests.find((r) => r.path === "/register")!;
		expect(JSON.parse(register.body)).toMatchObject({
			client_name: "My tau",
			application_type: "native",
			redirect_uris: [options.redirectUrl],
			token_endpoint_auth_method: "none",
		});
		const url = new URL(start.authorizationUrl);
		expect(Object.fromEntries(url.searchParams)).toMatchObject({
			response_type: "code",
			client_id: "registered",
			code_challenge_method: "S256",
			redirect_uri: options.redirectUrl,
			scope: "read offline_access",
			prompt: "consent",
			resource: `${as.base}/mcp`,
		});
		const tokens = await completeMcpSignIn({
			...options,
			authorization: start,
			response: { code: "the-code", state: start.state },
		});
		expect(tokens.access_token).toBe("at-1");
		const token = as.requests.find((r) => r.path === "/token")!;
		expect(createHash("sha256").update(token.form.get("code_verifier")!).digest("base64url")).toBe(
			url.searchParams.get("code_challenge"),
		);
		expect(token.form.get("resource")).toBe(`${as.base}/mcp`);
		expect(token.form.get("redirect_uri")).toBe(options.redirectUrl);
		expect(await options.store.load()).toMatchObject({
			tokens: { access_token: "at-1", scope: "read offline_access" },
			tokensExpireAt: expect.any(Number),
		});
	});

	it("fails without S256 support and rejects a foreign state", async () => {
		const plainOnly = await authorizationServer({ code_challenge_methods_supported: ["plain"] });
		await expect(startMcpSignIn(signInOptions(`${plainOnly.base}/mcp`))).rejects.toThrow(/S256/);
		const as = await authorizationServer();
		const options = signInOptions(`${as.base}/mcp`);
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		await expect(
			completeMcpSignIn({ ...options, authorization: start, response: { code: "c", state: "forged" } }),
		).rejects.toThrow(/state/);
	});

	it.each([
		["iss matches", { authorization_response_iss_parameter_supported: true }, "self", true],
		["iss differs", { authorization_response_iss_parameter_supported: true }, "https://evil.example", false],
		["iss missing though promised", { authorization_response_iss_parameter_supported: true }, undefined, false],
		["iss missing, not promised", {}, undefined, true],
	] as const)("RFC 9207: %s", async (_name, extra, iss, accepted) => {
		const as = await authorizationServer(extra);
		const options = signInOptions(`${as.base}/mcp`);
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		const response = {
			code: "c",
			state: start.state,
			...(iss === undefined ? {} : { iss: iss === "self" ? as.base : iss }),
		};
		const result = completeMcpSignIn({ ...options, authorization: start, response });
		if (accepted) await expect(result).resolves.toMatchObject({ access_token: "at-1" });
		else await expect(result).rejects.toBeInstanceOf(OAuthIssuerMismatchError);
		expect(as.paths().includes("POST /token")).toBe(accepted);
	});

	it("RFC 9207: iss without metadata is rejected before the token endpoint", async () => {
		const as = await serve({
			"POST /register": (request) => ({ status: 201, json: { client_id: "c", ...JSON.parse(request.body) } }),
			"POST /token": () => ({ json: { access_token: "x" } }),
		});
		const options = signInOptions(`${as.base}/mcp`);
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		expect(new URL(start.authorizationUrl).pathname).toBe("/authorize");
		await expect(
			completeMcpSignIn({
				...options,
				authorization: start,
				response: { code: "c", state: start.state, iss: as.base },
			}),
		).rejects.toBeInstanceOf(OAuthIssuerMismatchError);
		expect(as.paths()).not.toContain("POST /token");
	});
});

describe("client ID metadata documents (CIMD)", () => {
	const documents = { baseUrl: "https://tau.example/oauth" };
	const cimdMetadata = {
		client_id_metadata_document_supported: true,
		token_endpoint_auth_methods_supported: ["none"],
	};

	it("with iss support the document URL is the client_id, the redirect stays and nothing is registered or stored", async () => {
		const as = await authorizationServer({ ...cimdMetadata, authorization_response_iss_parameter_supported: true });
		const options = signInOptions(`${as.base}/mcp`, { clientMetadataDocuments: documents });
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		const params = new URL(start.authorizationUrl).searchParams;
		expect(params.get("client_id")).toBe("https://tau.example/oauth/client.json");
		expect(params.get("redirect_uri")).toBe(options.redirectUrl);
		expect(start.redirectUrl).toBe(options.redirectUrl);
		expect(as.paths()).not.toContain("POST /register");
		expect((await options.store.load())?.clientInformation).toBeUndefined();
		await completeMcpSignIn({
			...options,
			authorization: start,
			response: { code: "c", state: start.state, iss: as.base },
		});
		const token = as.requests.find((r) => r.path === "/token")!;
		expect(token.form.get("client_id")).toBe("https://tau.example/oauth/client.json");
		expect((await options.store.load())?.clientInformation).toBeUndefined();
		expect(await refreshMcpTokens(options)).toBe(true);
		const refresh = as.requests.find((r) => r.form.get("grant_type") === "refresh_token")!;
		expect(refresh.form.get("client_id")).toBe("https://tau.example/oauth/client.json");
	});

	it("without iss support each server gets its own document and callback path", async () => {
		const as = await authorizationServer(cimdMetadata);
		const serverUrl = `${as.base}/mcp`;
		const options = signInOptions(serverUrl, { clientMetadataDocuments: documents });
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		const id = createHash("sha256").update(serverUrl).digest().subarray(0, 9).toString("base64url");
		expect(metadataDocumentCallbackId(`${serverUrl}#fragment`)).toBe(id);
		const params = new URL(start.authorizationUrl).searchParams;
		expect(params.get("client_id")).toBe(`https://tau.example/oauth/${id}/client.json`);
		expect(params.get("redirect_uri")).toBe(`http://127.0.0.1:8765/callback/${id}`);
		expect(start.redirectUrl).toBe(`http://127.0.0.1:8765/callback/${id}`);
		await completeMcpSignIn({ ...options, authorization: start, response: { code: "c", state: start.state } });
		const token = as.requests.find((r) => r.path === "/token")!;
		expect(token.form.get("redirect_uri")).toBe(`http://127.0.0.1:8765/callback/${id}`);
		expect(token.form.get("client_id")).toBe(`https://tau.example/oauth/${id}/client.json`);
	});

	it("auto falls back to DCR with a configured client name, an unsupported AS or an unlisted redirect", async () => {
		const named = await authorizationServer(cimdMetadata);
		await startMcpSignIn(
			signInOptions(`${named.base}/mcp`, { clientMetadataDocuments: documents, settings: { clientName: "Mine" } }),
		);
		expect(named.paths()).toContain("POST /register");
		const unsupported = await authorizationServer();
		await startMcpSignIn(signInOptions(`${unsupported.base}/mcp`, { clientMetadataDocuments: documents }));
		expect(unsupported.paths()).toContain("POST /register");
		const unlisted = await authorizationServer(cimdMetadata);
		await startMcpSignIn(
			signInOptions(`${unlisted.base}/mcp`, {
				clientMetadataDocuments: documents,
				redirectUrl: "http://127.0.0.1:8765/elsewhere",
			}),
		);
		expect(unlisted.paths()).toContain("POST /register");
		expect(documentsListRedirect("http://localhost:1/callback")).toBe(true);
		expect(documentsListRedirect("https://127.0.0.1/callback")).toBe(false);
	});

	it("cimd fails without AS support or without documents, and replaces a stored registered client", async () => {
		const unsupported = await authorizationServer();
		await expect(
			startMcpSignIn(
				signInOptions(`${unsupported.base}/mcp`, {
					clientMetadataDocuments: documents,
					settings: { clientRegistration: "cimd" },
				}),
			),
		).rejects.toThrow(/metadata documents/);
		const as = await authorizationServer(cimdMetadata);
		await expect(
			startMcpSignIn(signInOptions(`${as.base}/mcp`, { settings: { clientRegistration: "cimd" } })),
		).rejects.toThrow(/metadata documents/);
		const store = createMemoryOAuthStore();
		await store.save({
			serverUrl: `${as.base}/mcp`,
			clientInformation: { client_id: "old-registered", redirect_uris: ["http://127.0.0.1:8765/callback"] },
		});
		const start = await startMcpSignIn(
			signInOptions(`${as.base}/mcp`, {
				store,
				clientMetadataDocuments: documents,
				settings: { clientRegistration: "cimd" },
			}),
		);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		expect(new URL(start.authorizationUrl).searchParams.get("client_id")).toMatch(/client\.json$/);
		expect((await store.load())?.clientInformation).toBeUndefined();
		const kept = createMemoryOAuthStore();
		await kept.save({
			serverUrl: `${as.base}/mcp`,
			clientInformation: { client_id: "old-registered", redirect_uris: ["http://127.0.0.1:8765/callback"] },
		});
		const auto = await startMcpSignIn(
			signInOptions(`${as.base}/mcp`, { store: kept, clientMetadataDocuments: documents }),
		);
		if (auto.kind !== "redirect") throw new Error("expected a redirect");
		expect(new URL(auto.authorizationUrl).searchParams.get("client_id")).toBe("old-registered");
	});
});

describe("refresh and the connection auth provider", () => {
	async function signedIn(tokenAnswer: (form: URLSearchParams) => { status?: number; json: unknown }) {
		let answer: (form: URLSearchParams) => { status?: number; json: unknown } = () => ({
			json: { access_token: "at-1", refresh_token: "rt-1", expires_in: 3600 },
		});
		const as = await authorizationServer({}, (form) => answer(form));
		const options = signInOptions(`${as.base}/mcp`, { settings: { scope: "read" } });
		const start = await startMcpSignIn(options);
		if (start.kind !== "redirect") throw new Error("expected a redirect");
		await completeMcpSignIn({ ...options, authorization: start, response: { code: "c", state: start.state } });
		answer = tokenAnswer;
		return { as, options };
	}

	it("a refresh without refresh_token or scope keeps both; concurrent 401s share one refresh", async () => {
		const { as, options } = await signedIn(() => ({ json: { access_token: "at-2" } }));
		const provider = createMcpAuthProvider({
			serverUrl: options.serverUrl,
			store: options.store,
			settings: () => ({}),
			fetch,
		});
		expect(await provider.token()).toBe("at-1");
		const response = () => new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } });
		const context = { serverUrl: new URL(options.serverUrl), fetch, token: "at-1" };
		await Promise.all([
			provider.onUnauthorized!({ ...context, response: response() }),
			provider.onUnauthorized!({ ...context, response: response() }),
		]);
		await provider.settled();
		expect(
			as.requests.filter((r) => r.path === "/token" && r.form.get("grant_type") === "refresh_token"),
		).toHaveLength(1);
		expect(await provider.token()).toBe("at-2");
		expect(await options.store.load()).toMatchObject({
			tokens: { access_token: "at-2", refresh_token: "rt-1", scope: "read" },
		});
	});

	it("sign-in refreshes first; invalid_client clears everything and registers again; invalid_grant goes to the browser", async () => {
		let answer = { json: { access_token: "at-2", refresh_token: "rt-2" } } as { status?: number; json: unknown };
		const { as, options } = await signedIn(() => answer);
		expect(await startMcpSignIn(options)).toEqual({ kind: "authorized" });
		answer = { status: 401, json: { error: "invalid_client" } };
		const again = await startMcpSignIn(options);
		expect(again.kind).toBe("redirect");
		expect(as.requests.filter((r) => r.path === "/register")).toHaveLength(2);
		expect((await options.store.load())?.tokens).toBeUndefined();
		const second = await signedIn(() => ({ status: 400, json: { error: "invalid_grant" } }));
		const start = await startMcpSignIn(second.options);
		expect(start.kind).toBe("redirect");
		expect(second.as.requests.filter((r) => r.path === "/register")).toHaveLength(1);
	});

	it("invalid_grant on refresh clears the tokens and requires sign-in; insufficient_scope requires sign-in", async () => {
		const { options } = await signedIn(() => ({ status: 400, json: { error: "invalid_grant" } }));
		const provider = createMcpAuthProvider({
			serverUrl: options.serverUrl,
			store: options.store,
			settings: () => ({}),
			fetch,
		});
		const context = { serverUrl: new URL(options.serverUrl), fetch, token: "at-1" };
		await expect(
			provider.onUnauthorized!({ ...context, response: new Response(null, { status: 401 }) }),
		).rejects.toBeInstanceOf(McpOAuthAuthorizationRequiredError);
		expect((await options.store.load())?.tokens).toBeUndefined();
		const scope = new Response(null, {
			status: 403,
			headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="write"' },
		});
		await expect(provider.onUnauthorized!({ ...context, response: scope })).rejects.toBeInstanceOf(
			McpOAuthAuthorizationRequiredError,
		);
	});
});
