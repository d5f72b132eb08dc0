/**
 * A mock of the OAuth endpoints tau's subscription sign-ins talk to: authorization (PKCE), token
 * (code and refresh grants, rotating single-use refresh tokens), GitHub's device flow and Copilot's
 * token exchange and seat models (copilot-seat.ts), OpenAI's dynamic client registration ("Sign in with ChatGPT"),
 * and a Radius gateway's sign-in discovery and account catalog (`/v1/oauth`, `/v1/config`). tau sends every OAuth request to `<origin>/<original host>/<path>` when the
 * test-only variable `TAU_TEST_OAUTH_ORIGIN` is set to `origin`.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type MockCopilotPolicy, type MockCopilotSeatOptions, mockCopilotSeat } from "./copilot-seat.js";

/** One request the mock OAuth server answered: method, original provider host, path and parameters. */
export interface OAuthExchange {
	method: string;
	/** The original provider host, e.g. `claude.ai`. */
	host: string;
	path: string;
	/** Query parameters (GET) or the JSON / form body (POST). */
	params: Record<string, string>;
	headers: IncomingMessage["headers"];
}

/** Options of `startMockOAuthServer`: token lifetime, the ChatGPT account id and device-code pending polls. */
export interface MockOAuthServerOptions {
	/** Lifetime of issued access tokens, in seconds (default 3600). */
	expiresIn?: number;
	/** `account` claim of the JWTs issued for OpenAI (default `acct-test`). */
	chatgptAccountId?: string;
	/** Device-code polls answered `authorization_pending` before approval (default 0). */
	pendingPolls?: number;
	/** The `interval` sent with a device code, in seconds (default 0). */
	deviceInterval?: number;
	/** The GitHub Copilot seat's models and how its model endpoints answer. */
	copilotSeat?: MockCopilotSeatOptions;
	/** What a Radius gateway's `/v1/config` answers with (default: no models, served at `https://<host>/v1`). */
	radiusCatalog?: { baseUrl: string; models: Record<string, unknown>[] };
}

/** A running mock of the providers' OAuth endpoints: its origin, the exchanges it saw and ways to revoke tokens. */
export interface MockOAuthServer {
	/** The value for `TAU_TEST_OAUTH_ORIGIN`. */
	readonly origin: string;
	readonly exchanges: readonly OAuthExchange[];
	/** Refresh grants, Copilot token exchanges and Meta key mints answered with new tokens. */
	readonly refreshCount: number;
	/**
	 * Refresh requests received per endpoint (`<original host><path>`, e.g. `platform.claude.com/v1/oauth/token`),
	 * refused ones included: refresh grants, and Copilot token exchanges and Meta key mints (which sign-ins make too).
	 */
	readonly refreshRequests: ReadonlyMap<string, number>;
	/** Makes every token issued so far unusable (the user revoked the app). */
	revokeAll(): void;
	/**
	 * Issues a refresh token the server will accept, as if from an earlier sign-in (to `grant`'s client):
	 * for a refresh grant, as the GitHub token of a Copilot token exchange, or as the identity token of a Meta key mint.
	 */
	seedRefreshToken(token: string, grant?: ResourceGrant): void;
	/** Lets a test hold refresh answers until `release` resolves (for races). */
	holdRefreshes(release: Promise<void>): void;
	/** Resolves when the first refresh request (refresh grant, Copilot token exchange or Meta key mint) has arrived. */
	readonly refreshRequested: Promise<void>;
	/** The Copilot seat's policy of each model now (after the policy requests so far). */
	readonly copilotPolicies: ReadonlyMap<string, MockCopilotPolicy>;
	close(): Promise<void>;
}

/** A grant bound to an API resource: the issued client id, scope and resource must come back on refresh. */
export interface ResourceGrant {
	clientId: string;
	scope: string;
	resource: string;
}

interface PendingCode {
	challenge: string;
	redirectUri: string;
	clientId: string;
	grant?: ResourceGrant;
}

function base64url(value: unknown): string {
	return Buffer.from(JSON.stringify(value)).toString("base64url");
}

async function readParams(request: IncomingMessage, url: URL): Promise<Record<string, string>> {
	if (request.method === "GET") return Object.fromEntries(url.searchParams);
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString("utf8");
	if ((request.headers["content-type"] ?? "").includes("json")) return text ? JSON.parse(text) : {};
	return Object.fromEntries(new URLSearchParams(text));
}

function send(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { "content-type": "application/json" });
	response.end(JSON.stringify(body));
}

/** Starts a mock of the providers' OAuth and token endpoints on 127.0.0.1 (reached through `TAU_TEST_OAUTH_ORIGIN`). */
export async function startMockOAuthServer(options: MockOAuthServerOptions = {}): Promise<MockOAuthServer> {
	const expiresIn = options.expiresIn ?? 3600;
	const exchanges: OAuthExchange[] = [];
	const codes = new Map<string, PendingCode>();
	const liveRefreshTokens = new Set<string>();
	const liveAccessTokens = new Set<string>();
	const githubTokens = new Set<string>();
	const devices = new Map<string, number>();
	const resourceGrants = new Map<string, ResourceGrant>();
	const copilotSeat = mockCopilotSeat(options.copilotSeat);
	let serial = 0;
	let refreshCount = 0;
	const refreshRequests = new Map<string, number>();
	let hold: Promise<void> | undefined;
	let markRefreshRequested!: () => void;
	const refreshRequested = new Promise<void>((resolve) => {
		markRefreshRequested = resolve;
	});
	/** Counts a refresh request at `host` + `path`, then waits while a test holds refresh answers. */
	const refreshArrived = async (host: string, path: string) => {
		const endpoint = `${host}${path}`;
		refreshRequests.set(endpoint, (refreshRequests.get(endpoint) ?? 0) + 1);
		markRefreshRequested();
		if (hold) await hold;
	};

	const accessToken = (host: string): string => {
		serial++;
		if (host.includes("openai")) {
			const claims = {
				"https://api.openai.com/auth": { chatgpt_account_id: options.chatgptAccountId ?? "acct-test" },
				n: serial,
			};
			return `${base64url({ alg: "none" })}.${base64url(claims)}.signature`;
		}
		return host.includes("claude") ? `sk-ant-oat01-access-${serial}` : `access-${serial}`;
	};
	const tokens = (host: string) => {
		const refresh = `refresh-${++serial}`;
		liveRefreshTokens.add(refresh);
		const access = accessToken(host);
		liveAccessTokens.add(access);
		// A Radius gateway names the granted scope.
		const scope = host.includes("radius") ? { scope: "gateway offline_access" } : {};
		return { access_token: access, refresh_token: refresh, expires_in: expiresIn, token_type: "Bearer", ...scope };
	};

	/** Tokens for a resource grant also carry the granted scope and an ID token; the grant follows the refresh token. */
	const grantTokens = (host: string, grant: ResourceGrant) => {
		const issued = tokens(host);
		resourceGrants.set(issued.refresh_token, grant);
		return {
			...issued,
			scope: grant.scope,
			id_token: `${base64url({ alg: "none" })}.${base64url({ n: serial })}.sig`,
		};
	};

	const startDevice = (host: string, res: ServerResponse) => {
		const device = `device-${++serial}`;
		devices.set(device, options.pendingPolls ?? 0);
		send(res, 200, {
			device_code: device,
			user_code: "ABCD-1234",
			verification_uri: `https://${host}/login/device`,
			interval: options.deviceInterval ?? 0,
			expires_in: 900,
		});
	};
	/** GitHub answers pending polls with 200, RFC 8628 with 400; approval yields a GitHub token or OAuth tokens. */
	const deviceAnswer = (host: string, p: Record<string, string>, res: ServerResponse, pendingStatus: number) => {
		const remaining = devices.get(p.device_code ?? "");
		if (remaining === undefined) return send(res, pendingStatus, { error: "expired_token" });
		if (remaining > 0) {
			devices.set(p.device_code!, remaining - 1);
			return send(res, pendingStatus, { error: "authorization_pending" });
		}
		devices.delete(p.device_code!);
		if (pendingStatus === 200) {
			const token = `gho_github-${++serial}`;
			githubTokens.add(token);
			return send(res, 200, { access_token: token, token_type: "bearer", scope: "read:user" });
		}
		send(res, 200, tokens(host));
	};

	const routes: Record<
		string,
		(
			host: string,
			p: Record<string, string>,
			req: IncomingMessage,
			res: ServerResponse,
			path: string,
		) => Promise<void> | void
	> = {
		/** OpenRouter: PKCE without client or state, a `callback_url`, and a permanent key for the code. */
		"GET /auth": (_host, p, _req, res) => {
			if (p.code_challenge_method !== "S256" || !p.code_challenge || !p.callback_url) {
				return send(res, 400, { error: "invalid_request" });
			}
			const code = `code-${++serial}`;
			codes.set(code, { challenge: p.code_challenge, redirectUri: p.callback_url, clientId: "" });
			const target = new URL(p.callback_url);
			target.searchParams.set("code", code);
			res.writeHead(302, { location: target.toString() });
			res.end();
		},
		"POST /auth/keys": (_host, p, _req, res) => {
			const pending = codes.get(p.code ?? "");
			codes.delete(p.code ?? "");
			const verified =
				pending &&
				createHash("sha256")
					.update(p.code_verifier ?? "")
					.digest("base64url") === pending.challenge;
			return verified ? send(res, 200, { key: `sk-or-v1-${++serial}` }) : send(res, 400, { error: "invalid_code" });
		},
		"GET /oauth/authorize": (_host, p, _req, res) => {
			if (p.code_challenge_method !== "S256" || !p.code_challenge || !p.redirect_uri || !p.client_id) {
				return send(res, 400, { error: "invalid_request" });
			}
			const code = `code-${++serial}`;
			codes.set(code, { challenge: p.code_challenge, redirectUri: p.redirect_uri, clientId: p.client_id });
			const target = new URL(p.redirect_uri);
			target.searchParams.set("code", code);
			if (p.state) target.searchParams.set("state", p.state);
			res.writeHead(302, { location: target.toString() });
			res.end();
		},
		/** OpenAI's dynamic registration: a new client per sign-in, its id returned in the redirect. */
		"GET /accounts/authorize": (_host, p, _req, res) => {
			const complete = p.code_challenge && p.redirect_uri && p.resource && p.scope && p.state && p.ext_agent_host_id;
			if (p.client_id !== "dynamic_agent_client" || p.code_challenge_method !== "S256" || !complete) {
				return send(res, 400, { error: "invalid_request" });
			}
			const clientId = `agent-client-${++serial}`;
			const code = `code-${++serial}`;
			const grant = { clientId, scope: p.scope!, resource: p.resource! };
			codes.set(code, { challenge: p.code_challenge!, redirectUri: p.redirect_uri!, clientId, grant });
			const target = new URL(p.redirect_uri!);
			target.searchParams.set("code", code);
			target.searchParams.set("state", p.state!);
			target.searchParams.set("client_id", clientId);
			res.writeHead(302, { location: target.toString() });
			res.end();
		},
		"POST /token": async (host, p, _req, res, path) => {
			if (p.grant_type === "urn:ietf:params:oauth:grant-type:device_code") return deviceAnswer(host, p, res, 400);
			if (p.grant_type === "authorization_code") {
				const pending = codes.get(p.code ?? "");
				codes.delete(p.code ?? "");
				const verified =
					pending &&
					pending.redirectUri === p.redirect_uri &&
					pending.clientId === p.client_id &&
					createHash("sha256")
						.update(p.code_verifier ?? "")
						.digest("base64url") === pending.challenge;
				if (!verified || (pending.grant && pending.grant.resource !== p.resource)) {
					return send(res, 400, { error: "invalid_grant" });
				}
				return send(res, 200, pending.grant ? grantTokens(host, pending.grant) : tokens(host));
			}
			if (p.grant_type === "refresh_token") {
				await refreshArrived(host, path);
				const grant = resourceGrants.get(p.refresh_token ?? "");
				if (grant && (grant.clientId !== p.client_id || grant.resource !== p.resource)) {
					return send(res, 400, { error: "invalid_client" });
				}
				if (!liveRefreshTokens.delete(p.refresh_token ?? "")) {
					return send(res, 400, { error: "invalid_grant", error_description: "Refresh token revoked" });
				}
				refreshCount++;
				return send(res, 200, grant ? grantTokens(host, grant) : tokens(host));
			}
			send(res, 400, { error: "unsupported_grant_type" });
		},
		"POST /deviceauth/usercode": (_host, _p, _req, res) => {
			const device = `device-${++serial}`;
			devices.set(device, options.pendingPolls ?? 0);
			send(res, 200, {
				device_auth_id: device,
				user_code: "ABCD-1234",
				interval: String(options.deviceInterval ?? 0),
			});
		},
		/** ChatGPT's device login: 403 until approved, then a code with its verifier for the usual exchange. */
		"POST /deviceauth/token": (host, p, _req, res) => {
			const remaining = devices.get(p.device_auth_id ?? "");
			if (remaining === undefined) return send(res, 400, { error: { code: "expired" } });
			if (remaining > 0) {
				devices.set(p.device_auth_id!, remaining - 1);
				return send(res, 403, { error: { code: "deviceauth_authorization_pending" } });
			}
			devices.delete(p.device_auth_id!);
			const verifier = `verifier-${++serial}`;
			const code = `code-${++serial}`;
			codes.set(code, {
				challenge: createHash("sha256").update(verifier).digest("base64url"),
				redirectUri: `https://${host}/deviceauth/callback`,
				clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
			});
			send(res, 200, { authorization_code: code, code_verifier: verifier });
		},
		/** Radius: the gateway names its interactive authorization address; the rest of the sign-in is its own. */
		"GET /v1/oauth": (host, _p, _req, res) =>
			send(res, 200, { authorizationEndpoint: `https://${host}/oauth/authorize` }),
		"POST /v1/oauth/device": (host, _p, _req, res) => startDevice(host, res),
		/** Radius: the account's catalog; a token this server issued and revoked is refused. */
		"GET /v1/config": (host, _p, req, res) => {
			const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
			if (!token || (token.startsWith("access-") && !liveAccessTokens.has(token))) {
				return send(res, 401, { error: "invalid_token" });
			}
			send(res, 200, options.radiusCatalog ?? { baseUrl: `https://${host}/v1`, models: [] });
		},
		"POST /device_authorization": (host, _p, _req, res) => startDevice(host, res),
		"POST /device/authorization": (host, _p, _req, res) => startDevice(host, res),
		/** Meta: an identity token mints a Model API key. */
		"POST /muse-code/key": async (host, _p, req, res, path) => {
			await refreshArrived(host, path);
			const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
			if (!liveAccessTokens.has(token) && !liveRefreshTokens.has(token)) {
				return send(res, 401, { error: "invalid_token" });
			}
			refreshCount++;
			send(res, 200, { api_key: `meta-key-${++serial}` });
		},
		"POST /device/code": (host, _p, _req, res) => startDevice(host, res),
		"POST /login/oauth/access_token": (host, p, _req, res) => deviceAnswer(host, p, res, 200),
		"GET /copilot_internal/v2/token": async (host, _p, req, res, path) => {
			await refreshArrived(host, path);
			const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
			if (!githubTokens.has(token) && !liveRefreshTokens.has(token)) {
				return send(res, 401, { message: "Bad credentials" });
			}
			refreshCount++;
			const expiresAt = Math.floor(Date.now() / 1000) + expiresIn;
			const copilotToken = `tid=${++serial};exp=${expiresAt};proxy-ep=proxy.individual.githubcopilot.com;sku=test`;
			copilotSeat.issue(copilotToken);
			send(res, 200, { token: copilotToken, expires_at: expiresAt });
		},
		"GET /models": (_host, _p, req, res) => copilotSeat.list(req, res),
		"POST /policy": (_host, _p, req, res) => copilotSeat.policy(req, res),
	};

	const server = createServer((request, response) => {
		void (async () => {
			const url = new URL(request.url ?? "/", "http://127.0.0.1");
			const [, host = "", ...rest] = url.pathname.split("/");
			// Meta's endpoints end in a slash; routes are matched without it.
			const path = `/${rest.join("/")}`.replace(/(.)\/$/, "$1");
			const params = await readParams(request, url);
			exchanges.push({ method: request.method ?? "GET", host, path, params, headers: request.headers });
			// The most specific route wins (`/deviceauth/token` before `/token`).
			const route = Object.entries(routes)
				.filter(([key]) => {
					const [method, suffix] = key.split(" ");
					return method === request.method && path.endsWith(suffix!);
				})
				.sort(([a], [b]) => b.length - a.length)[0];
			if (!route) return send(response, 404, { error: "not_found" });
			await route[1](host, params, request, response, path);
		})().catch((error: unknown) => send(response, 500, { error: "server_error", error_description: String(error) }));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	server.unref();
	const address = server.address();
	const port = typeof address === "object" && address ? address.port : 0;
	return {
		origin: `http://127.0.0.1:${port}`,
		exchanges,
		refreshRequested,
		copilotPolicies: copilotSeat.policies,
		refreshRequests,
		get refreshCount() {
			return refreshCount;
		},
		revokeAll() {
			liveRefreshTokens.clear();
			liveAccessTokens.clear();
			githubTokens.clear();
		},
		seedRefreshToken(token, grant) {
			liveRefreshTokens.add(token);
			if (grant) resourceGrants.set(token, grant);
		},
		holdRefreshes(release) {
			hold = release;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
