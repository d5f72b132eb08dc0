import { LATEST_PROTOCOL_VERSION } from "../protocol.js";
import type { FetchLike } from "../transport/http/streamable-http-transport.js";
import { assertHttpEndpoint, assertSecureEndpoint } from "./endpoints.js";
import { OAuthIssuerMismatchError } from "./errors.js";
import type { WwwAuthenticateChallenge } from "./www-authenticate.js";

/** An authorization server's metadata document (RFC 8414): its endpoints and what it supports. */
export interface AuthorizationServerMetadata {
	issuer: string;
	authorization_endpoint: string;
	token_endpoint: string;
	registration_endpoint?: string;
	response_types_supported?: string[];
	code_challenge_methods_supported?: string[];
	scopes_supported?: string[];
	token_endpoint_auth_methods_supported?: string[];
	authorization_response_iss_parameter_supported?: boolean;
	client_id_metadata_document_supported?: boolean;
	[key: string]: unknown;
}

/**
 * What `discoverMcpOAuth` found for a server: the authorization server, its metadata, the resource and the supported
 * scopes.
 */
export interface McpOAuthDiscovery {
	/** The RFC 8707 `resource` (the PRM `resource`, else absent). */
	resource?: string;
	authorizationServer: string;
	/** Absent when no metadata document exists: fall back to `/authorize`, `/token`, `/register`. */
	metadata?: AuthorizationServerMetadata;
	scopesSupported?: string[];
}

export interface DiscoveryOptions {
	fetch: FetchLike;
	challenge?: WwwAuthenticateChallenge;
	/** Fetched directly and trusted without the issuer check. */
	authServerMetadataUrl?: string;
	protocolVersion?: string;
	signal?: AbortSignal;
}

/** 4xx and 502 mean "not here, try the next location"; other failures are real errors. */
function isMiss(status: number): boolean {
	return (status >= 400 && status < 500) || status === 502;
}

async function getJson(
	url: string,
	options: DiscoveryOptions,
): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; status: number }> {
	const init: RequestInit = {
		headers: {
			accept: "application/json",
			"mcp-protocol-version": options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
		},
	};
	if (options.signal) init.signal = options.signal;
	const response = await options.fetch(url, init);
	if (!response.ok) {
		await response.body?.cancel().catch(() => {});
		return { ok: false, status: response.status };
	}
	const body = (await response.json()) as unknown;
	if (typeof body !== "object" || body === null || Array.isArray(body))
		throw new Error(`${url} did not return a JSON object`);
	return { ok: true, body: body as Record<string, unknown> };
}

function wellKnown(base: URL, name: string, suffixPath: boolean): string {
	const path = base.pathname === "/" ? "" : base.pathname.replace(/\/$/, "");
	return suffixPath ? `${base.origin}/.well-known/${name}${path}` : `${base.origin}${path}/.well-known/${name}`;
}

/** RFC 9728: the challenge's `resource_metadata` (no fallback), else path-specific then root well-known. */
async function discoverProtectedResource(
	serverUrl: URL,
	options: DiscoveryOptions,
): Promise<Record<string, unknown> | undefined> {
	const candidates = options.challenge?.resourceMetadata
		? [options.challenge.resourceMetadata.href]
		: [wellKnown(serverUrl, "oauth-protected-resource", true)];
	if (!options.challenge?.resourceMetadata && serverUrl.pathname !== "/") {
		candidates.push(`${serverUrl.origin}/.well-known/oauth-protected-resource`);
	}
	for (const candidate of candidates) {
		try {
			const result = await getJson(candidate, options);
			if (result.ok) return result.body;
			if (!isMiss(result.status)) return undefined;
		} catch (error) {
			// A network failure is not "no metadata": it propagates.
			if (error instanceof TypeError) throw error;
			return undefined;
		}
	}
	return undefined;
}

function sameIssuer(a: string, b: string): boolean {
	return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}

function validateMetadata(body: Record<string, unknown>): AuthorizationServerMetadata {
	assertHttpEndpoint(body.authorization_endpoint, "authorization_endpoint");
	assertHttpEndpoint(body.token_endpoint, "token_endpoint");
	if (body.registration_endpoint !== undefined)
		assertHttpEndpoint(body.registration_endpoint, "registration_endpoint");
	return body as AuthorizationServerMetadata;
}

/** RFC 8414 / OIDC discovery in order; the `issuer` must be the authorization server's URL. */
export async function discoverAuthorizationServerMetadata(
	authorizationServer: string,
	options: DiscoveryOptions,
): Promise<AuthorizationServerMetadata | undefined> {
	const base = new URL(authorizationServer);
	const candidates = [
		wellKnown(base, "oauth-authorization-server", true),
		wellKnown(base, "openid-configuration", true),
	];
	if (base.pathname !== "/") candidates.push(wellKnown(base, "openid-configuration", false));
	for (const candidate of candidates) {
		const result = await getJson(candidate, options);
		if (!result.ok) {
			if (isMiss(result.status)) continue;
			throw new Error(`OAuth metadata ${candidate} answered HTTP ${result.status}`);
		}
		const issuer = typeof result.body.issuer === "string" ? result.body.issuer : undefined;
		if (!issuer || !sameIssuer(issuer, authorizationServer))
			throw new OAuthIssuerMismatchError(authorizationServer, issuer);
		return validateMetadata(result.body);
	}
	return undefined;
}

/** Finds the authorization server, its metadata and the resource indicator of an MCP server. */
export async function discoverMcpOAuth(serverUrl: string | URL, options: DiscoveryOptions): Promise<McpOAuthDiscovery> {
	const server = new URL(serverUrl);
	server.hash = "";
	const prm = await discoverProtectedResource(server, options);
	const discovery: McpOAuthDiscovery = { authorizationServer: server.origin };
	if (prm) {
		if (typeof prm.resource === "string") {
			const resource = new URL(prm.resource);
			if (resource.origin !== server.origin || !server.pathname.startsWith(resource.pathname.replace(/\/$/, ""))) {
				throw new Error(`Protected resource metadata names ${prm.resource}, which does not cover ${server.href}`);
			}
			discovery.resource = prm.resource;
		}
		const servers = prm.authorization_servers;
		if (Array.isArray(servers) && typeof servers[0] === "string") discovery.authorizationServer = servers[0];
		if (Array.isArray(prm.scopes_supported))
			discovery.scopesSupported = prm.scopes_supported.filter((s) => typeof s === "string");
	}
	if (options.authServerMetadataUrl) {
		const url = assertSecureEndpoint(options.authServerMetadataUrl).href;
		const result = await getJson(url, options);
		if (!result.ok) throw new Error(`OAuth metadata ${url} answered HTTP ${result.status}`);
		discovery.metadata = validateMetadata(result.body);
		return discovery;
	}
	const metadata = await discoverAuthorizationServerMetadata(discovery.authorizationServer, options);
	if (metadata) discovery.metadata = metadata;
	return discovery;
}

/** The endpoints to use, with the spec's fallbacks when there is no metadata. */
export function oauthEndpoints(discovery: McpOAuthDiscovery): {
	authorization: string;
	token: string;
	registration?: string;
} {
	const metadata = discovery.metadata;
	if (metadata) {
		const endpoints: { authorization: string; token: string; registration?: string } = {
			authorization: metadata.authorization_endpoint,
			token: metadata.token_endpoint,
		};
		if (metadata.registration_endpoint) endpoints.registration = metadata.registration_endpoint;
		return endpoints;
	}
	const base = discovery.authorizationServer.replace(/\/$/, "");
	return { authorization: `${base}/authorize`, token: `${base}/token`, registration: `${base}/register` };
}
