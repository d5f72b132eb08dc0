import type { FetchLike } from "../transport/http/streamable-http-transport.js";
import { assertSecureEndpoint } from "./endpoints.js";
import { OAuthError } from "./errors.js";
import type { McpOAuthClientInformation, McpOAuthTokens } from "./state.js";

/** Each authorization-server request gives up after this long. */
export const OAUTH_REQUEST_TIMEOUT_MS = 15_000;

export interface TokenRequest {
	fetch: FetchLike;
	tokenEndpoint: string;
	client: McpOAuthClientInformation;
	/** Auth methods the server supports (metadata), for picking client authentication. */
	supportedAuthMethods?: string[];
	params: Record<string, string | undefined>;
	signal?: AbortSignal;
}

function clientAuthMethod(client: McpOAuthClientInformation, supported: string[] | undefined): string {
	if (!client.client_secret) return "none";
	const hinted = client.token_endpoint_auth_method;
	if (hinted && (!supported || supported.includes(hinted))) return hinted;
	for (const method of ["client_secret_basic", "client_secret_post", "none"]) {
		if (!supported || supported.includes(method)) return method;
	}
	return "client_secret_basic";
}

/** Drops empty and null optional fields: `expires_in: null` must never mean "expired". */
function cleanTokens(body: Record<string, unknown>): McpOAuthTokens {
	if (typeof body.access_token !== "string" || body.access_token === "")
		throw new OAuthError("server_error", "token response lacks access_token");
	const tokens: McpOAuthTokens = { access_token: body.access_token };
	for (const [key, value] of Object.entries(body)) {
		if (key === "access_token" || value === null || value === "") continue;
		tokens[key] = value;
	}
	if (tokens.expires_in !== undefined && typeof tokens.expires_in !== "number") delete tokens.expires_in;
	return tokens;
}

/** POSTs a token request; an OAuth error body wins over the status. */
export async function requestTokens(request: TokenRequest): Promise<McpOAuthTokens> {
	const endpoint = assertSecureEndpoint(request.tokenEndpoint);
	const form = new URLSearchParams();
	for (const [key, value] of Object.entries(request.params)) if (value !== undefined) form.set(key, value);
	const headers: Record<string, string> = {
		"content-type": "application/x-www-form-urlencoded",
		accept: "application/json",
	};
	const method = clientAuthMethod(request.client, request.supportedAuthMethods);
	if (method === "client_secret_basic") {
		const credentials = `${encodeURIComponent(request.client.client_id)}:${encodeURIComponent(request.client.client_secret ?? "")}`;
		headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
	} else {
		form.set("client_id", request.client.client_id);
		if (method === "client_secret_post" && request.client.client_secret)
			form.set("client_secret", request.client.client_secret);
	}
	const timeout = AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS);
	const response = await request.fetch(endpoint, {
		method: "POST",
		headers,
		body: form.toString(),
		signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
	});
	const text = await response.text();
	let body: Record<string, unknown> | undefined;
	try {
		const parsed = JSON.parse(text) as unknown;
		if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
			body = parsed as Record<string, unknown>;
	} catch {
		body = undefined;
	}
	if (body && typeof body.error === "string") {
		throw new OAuthError(
			body.error,
			typeof body.error_description === "string" ? body.error_description : undefined,
			typeof body.error_uri === "string" ? body.error_uri : undefined,
		);
	}
	if (!response.ok || !body) throw new OAuthError("server_error", `token endpoint answered HTTP ${response.status}`);
	return cleanTokens(body);
}
