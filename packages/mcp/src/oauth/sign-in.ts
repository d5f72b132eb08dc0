import type { McpOAuthConfig } from "../config/server-config.js";
import { McpOAuthAuthorizationRequiredError } from "../errors.js";
import type { FetchLike } from "../transport/http/streamable-http-transport.js";
import {
	type McpClientMetadataDocuments,
	type MetadataDocumentClient,
	metadataDocumentClient,
} from "./client-metadata-document.js";
import { discoverMcpOAuth, type McpOAuthDiscovery, oauthEndpoints } from "./discovery.js";
import { isLoopbackUrl } from "./endpoints.js";
import { McpRefreshLockBusyError, OAuthError, OAuthIssuerMismatchError, OAuthRegistrationError } from "./errors.js";
import { codeChallengeS256, createCodeVerifier, createOAuthState } from "./pkce.js";
import {
	loadStateFor,
	type McpOAuthClientInformation,
	type McpOAuthServerStore,
	type McpOAuthState,
	type McpOAuthTokens,
} from "./state.js";
import { OAUTH_REQUEST_TIMEOUT_MS, requestTokens } from "./token-endpoint.js";
import type { WwwAuthenticateChallenge } from "./www-authenticate.js";

/** Options of `startMcpSignIn`: the server, the token store, the OAuth settings and the redirect URL. */
export interface McpSignInOptions {
	serverUrl: string;
	store: McpOAuthServerStore;
	settings: McpOAuthConfig;
	redirectUrl: string;
	/** `client_name` for dynamic registration (default "tau"). */
	clientName?: string;
	/** Published client metadata documents (CIMD); without them `auto` registers dynamically. */
	clientMetadataDocuments?: McpClientMetadataDocuments;
	challenge?: WwwAuthenticateChallenge;
	/** Step-up for `insufficient_scope`: always needs the browser. */
	stepUp?: boolean;
	fetch?: FetchLike;
	now?: () => number;
}

/**
 * What `startMcpSignIn` returns: already authorized, or the URL to open in a browser and what to check on the redirect.
 */
export type McpSignInStart =
	| { kind: "authorized" }
	| { kind: "redirect"; authorizationUrl: string; redirectUrl: string; state: string; scope?: string };

/** Options of `completeMcpSignIn`: the sign-in options plus the started authorization and the redirect's parameters. */
export interface McpSignInCompletion extends McpSignInOptions {
	authorization: { state: string; redirectUrl: string; scope?: string };
	response: { code: string; state: string; iss?: string };
}

const fetchOf = (options: { fetch?: FetchLike }): FetchLike =>
	options.fetch ?? ((input, init) => globalThis.fetch(input, init));

function splitScopes(scope: string | undefined): string[] {
	return (scope ?? "").split(/\s+/).filter(Boolean);
}

/** Configured + granted + challenged scopes, de-duplicated; `undefined` without challenged scopes. */
export function stepUpScope(
	granted: string | undefined,
	challenged: string | undefined,
	configured?: string,
): string | undefined {
	if (!challenged) return undefined;
	return [...new Set([...splitScopes(configured), ...splitScopes(granted), ...splitScopes(challenged)])].join(" ");
}

/** The tokens to store: a missing `scope` records the requested one; a missing refresh token keeps the old one. */
function mergeTokens(
	fresh: McpOAuthTokens,
	previous: McpOAuthTokens | undefined,
	requestedScope: string | undefined,
): McpOAuthTokens {
	const tokens = { ...fresh };
	if (tokens.scope === undefined) {
		const scope = previous?.scope ?? requestedScope;
		if (scope) tokens.scope = scope;
	}
	if (tokens.refresh_token === undefined && previous?.refresh_token) tokens.refresh_token = previous.refresh_token;
	return tokens;
}

function withTokens(state: McpOAuthState, tokens: McpOAuthTokens, now: number): McpOAuthState {
	const next: McpOAuthState = { ...state, tokens };
	if (typeof tokens.expires_in === "number") next.tokensExpireAt = now + tokens.expires_in * 1000;
	else delete next.tokensExpireAt;
	return next;
}

async function discover(options: McpSignInOptions, state: McpOAuthState): Promise<McpOAuthDiscovery> {
	// Configured metadata is fetched every time; other discovery is cached with the state.
	if (state.discovery && !options.settings.authServerMetadataUrl) return state.discovery;
	const discoveryOptions: Parameters<typeof discoverMcpOAuth>[1] = { fetch: fetchOf(options) };
	if (options.challenge) discoveryOptions.challenge = options.challenge;
	if (options.settings.authServerMetadataUrl)
		discoveryOptions.authServerMetadataUrl = options.settings.authServerMetadataUrl;
	return discoverMcpOAuth(options.serverUrl, discoveryOptions);
}

async function registerClient(
	options: McpSignInOptions,
	discovery: McpOAuthDiscovery,
	scope: string | undefined,
): Promise<McpOAuthClientInformation> {
	if (discovery.metadata && !discovery.metadata.registration_endpoint) {
		throw new OAuthRegistrationError(
			"The authorization server does not support dynamic client registration; configure oauth.clientId",
		);
	}
	const endpoint = oauthEndpoints(discovery).registration!;
	const secret = options.settings.clientSecret;
	const body: Record<string, unknown> = {
		redirect_uris: [options.redirectUrl],
		grant_types: ["authorization_code", "refresh_token"],
		response_types: ["code"],
		token_endpoint_auth_method: secret ? "client_secret_post" : "none",
		client_name: options.settings.clientName ?? options.clientName ?? "tau",
		application_type: isLoopbackUrl(options.redirectUrl) || !/^https?:/.test(options.redirectUrl) ? "native" : "web",
	};
	if (scope) body.scope = scope;
	const response = await fetchOf(options)(endpoint, {
		method: "POST",
		headers: { "content-type": "application/json", accept: "application/json" },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(OAUTH_REQUEST_TIMEOUT_MS),
	});
	if (!response.ok)
		throw new OAuthRegistrationError(`Client registration failed: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as McpOAuthClientInformation;
}

/** The CIMD client for this server and redirect; its document URL is recomputed, never stored. */
function documentClientOf(
	options: McpSignInOptions,
	discovery: McpOAuthDiscovery,
	redirectUrl = options.redirectUrl,
): MetadataDocumentClient | undefined {
	return metadataDocumentClient({
		serverUrl: options.serverUrl,
		redirectUrl,
		settings: options.settings,
		documents: options.clientMetadataDocuments,
		metadata: discovery.metadata,
	});
}

/** The stored registered client, else the metadata-document client. */
function clientOf(
	options: McpSignInOptions,
	state: McpOAuthState,
	discovery: McpOAuthDiscovery,
): McpOAuthClientInformation | undefined {
	if (state.clientInformation) return state.clientInformation;
	const documentClient = documentClientOf(options, discovery);
	return documentClient ? { client_id: documentClient.clientId } : undefined;
}

/** A refresh that did not happen, and why (shown with the server's needs-sign-in state). */
export interface McpRefreshOutcome {
	refreshed: boolean;
	reason?: string;
}

/** Refreshes the stored tokens; returns false when impossible. `invalid_grant` clears the tokens. */
export async function refreshMcpTokens(options: McpSignInOptions): Promise<boolean> {
	return (await refreshStoredTokens(options)).refreshed;
}

/** refreshMcpTokens, telling why a refresh was impossible or rejected. */
export async function refreshStoredTokens(options: McpSignInOptions): Promise<McpRefreshOutcome> {
	const state = await loadStateFor(options.store, options.serverUrl);
	if (!state.tokens) return { refreshed: false };
	const refreshToken = state.tokens.refresh_token;
	if (!refreshToken)
		return { refreshed: false, reason: "The stored access token was rejected and there is no refresh token" };
	if (!state.clientInformation && !options.clientMetadataDocuments) {
		return { refreshed: false, reason: "The stored sign-in has no OAuth client to refresh it with" };
	}
	const discovery = await discover(options, state);
	const client = clientOf(options, state, discovery);
	if (!client) return { refreshed: false, reason: "The stored sign-in has no OAuth client to refresh it with" };
	try {
		const fresh = await requestTokens({
			fetch: fetchOf(options),
			tokenEndpoint: oauthEndpoints(discovery).token,
			client,
			...(discovery.metadata?.token_endpoint_auth_methods_supported
				? { supportedAuthMethods: discovery.metadata.token_endpoint_auth_methods_supported }
				: {}),
			params: { grant_type: "refresh_token", refresh_token: refreshToken, resource: discovery.resource },
		});
		const now = (options.now ?? Date.now)();
		await options.store.save({ ...withTokens(state, mergeTokens(fresh, state.tokens, undefined), now), discovery });
		return { refreshed: true };
	} catch (error) {
		const reason = `Refreshing the token failed: ${(error as Error).message}`;
		if (error instanceof OAuthError && error.code === "invalid_grant") {
			const { tokens, tokensExpireAt, ...rest } = state;
			await options.store.save(rest);
			return { refreshed: false, reason };
		}
		if (error instanceof OAuthError && (error.code === "invalid_client" || error.code === "unauthorized_client")) {
			await options.store.save({ serverUrl: state.serverUrl });
			return { refreshed: false, reason };
		}
		throw error;
	}
}

/** First half of a sign-in: refresh if possible, else prepare the browser redirect. */
export async function startMcpSignIn(options: McpSignInOptions): Promise<McpSignInStart> {
	if (!options.stepUp) {
		try {
			if (await options.store.withRefreshLock(() => refreshMcpTokens(options))) return { kind: "authorized" };
		} catch (error) {
			if (
				!(error instanceof McpRefreshLockBusyError) &&
				!(error instanceof OAuthError && error.code === "server_error")
			)
				throw error;
		}
	}
	let state = await loadStateFor(options.store, options.serverUrl);
	const discovery = await discover(options, state);
	const metadata = discovery.metadata;
	if (metadata?.response_types_supported && !metadata.response_types_supported.includes("code")) {
		throw new Error("The authorization server does not support the authorization code flow");
	}
	if (metadata?.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes("S256")) {
		throw new Error("The authorization server does not support PKCE S256");
	}
	const explicit = [
		...new Set([...splitScopes(options.settings.scope), ...splitScopes(options.challenge?.scope)]),
	].join(" ");
	const scope =
		(options.stepUp
			? stepUpScope(state.tokens?.scope, options.challenge?.scope, options.settings.scope)
			: undefined) ||
		explicit ||
		discovery.scopesSupported?.join(" ") ||
		undefined;
	// A registered client is usable only with the redirect URI it registered; `cimd` replaces it.
	let client = state.clientInformation;
	const replaced = options.settings.clientRegistration === "cimd";
	if (client && (replaced || (client.redirect_uris && !client.redirect_uris.includes(options.redirectUrl)))) {
		const { clientInformation, tokens, tokensExpireAt, ...rest } = state;
		state = rest;
		client = undefined;
	}
	if (!client && options.settings.clientId) {
		client = { client_id: options.settings.clientId };
		if (options.settings.clientSecret) client.client_secret = options.settings.clientSecret;
	}
	const documentClient = client ? undefined : documentClientOf(options, discovery);
	const redirectUrl = documentClient?.redirectUrl ?? options.redirectUrl;
	if (documentClient) client = { client_id: documentClient.clientId };
	client ??= await registerClient(options, discovery, scope);
	const verifier = createCodeVerifier();
	const oauthState = createOAuthState();
	const url = new URL(oauthEndpoints(discovery).authorization);
	const params: Record<string, string | undefined> = {
		response_type: "code",
		client_id: client.client_id,
		code_challenge: codeChallengeS256(verifier),
		code_challenge_method: "S256",
		redirect_uri: redirectUrl,
		state: oauthState,
		scope,
		prompt: splitScopes(scope).includes("offline_access") ? "consent" : undefined,
		resource: discovery.resource,
	};
	for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
	const next: McpOAuthState = { ...state, codeVerifier: verifier, oauthState, redirectUrl, discovery };
	// A metadata document's URL is the client id itself: nothing to remember.
	if (!documentClient) next.clientInformation = client;
	if (scope) next.requestedScope = scope;
	else delete next.requestedScope;
	// The verifier is saved before the user is sent anywhere.
	await options.store.save(next);
	const start: McpSignInStart = {
		kind: "redirect",
		authorizationUrl: url.href,
		redirectUrl,
		state: oauthState,
	};
	if (scope) start.scope = scope;
	return start;
}

/** Second half: checks state, redirect URI and issuer (RFC 9207), then exchanges the code. */
export async function completeMcpSignIn(options: McpSignInCompletion): Promise<McpOAuthTokens> {
	const state = await loadStateFor(options.store, options.serverUrl);
	if (options.response.state !== options.authorization.state || state.oauthState !== options.response.state) {
		throw new Error("The sign-in response does not belong to the current sign-in (state mismatch)");
	}
	const client = state.discovery && clientOf(options, state, state.discovery);
	if (!state.codeVerifier || !client || !state.discovery) throw new McpOAuthAuthorizationRequiredError();
	if (state.redirectUrl !== undefined && state.redirectUrl !== options.authorization.redirectUrl) {
		throw new Error("The redirect URI differs from the one used for authorization");
	}
	const discovery = state.discovery;
	const metadata = discovery.metadata;
	const iss = options.response.iss;
	if (iss !== undefined || metadata?.authorization_response_iss_parameter_supported) {
		if (!metadata || iss === undefined || iss !== metadata.issuer)
			throw new OAuthIssuerMismatchError(metadata?.issuer, iss);
	}
	const fresh = await requestTokens({
		fetch: fetchOf(options),
		tokenEndpoint: oauthEndpoints(discovery).token,
		client,
		...(metadata?.token_endpoint_auth_methods_supported
			? { supportedAuthMethods: metadata.token_endpoint_auth_methods_supported }
			: {}),
		params: {
			grant_type: "authorization_code",
			code: options.response.code,
			code_verifier: state.codeVerifier,
			redirect_uri: options.authorization.redirectUrl,
			resource: discovery.resource,
		},
	});
	const tokens = mergeTokens(fresh, undefined, options.authorization.scope ?? state.requestedScope);
	const { codeVerifier, oauthState, requestedScope, redirectUrl, ...rest } = state;
	await options.store.save(withTokens(rest, tokens, (options.now ?? Date.now)()));
	return tokens;
}
