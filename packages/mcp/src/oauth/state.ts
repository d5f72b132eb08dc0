import type { McpOAuthDiscovery } from "./discovery.js";
import { readStoredDiscovery } from "./stored-discovery.js";

/** A token response of the authorization server, as stored: access and refresh token, scope and lifetime. */
export interface McpOAuthTokens {
	access_token: string;
	token_type?: string;
	refresh_token?: string;
	scope?: string;
	expires_in?: number;
	[key: string]: unknown;
}

/** The OAuth client a server's authorization server knows tau as: pre-registered or from dynamic registration. */
export interface McpOAuthClientInformation {
	client_id: string;
	client_secret?: string;
	redirect_uris?: string[];
	token_endpoint_auth_method?: string;
	[key: string]: unknown;
}

/** Everything stored for one server: client, tokens, a pending sign-in and cached discovery. */
export interface McpOAuthState {
	serverUrl: string;
	clientInformation?: McpOAuthClientInformation;
	tokens?: McpOAuthTokens;
	tokensExpireAt?: number;
	codeVerifier?: string;
	oauthState?: string;
	/** Redirect URI and scope of the pending sign-in. */
	redirectUrl?: string;
	requestedScope?: string;
	discovery?: McpOAuthDiscovery;
}

/** Loads and saves the OAuth state (client, tokens, discovery) of one MCP server. */
export interface McpOAuthStateStore {
	load(): Promise<McpOAuthState | undefined>;
	save(state: McpOAuthState): Promise<void>;
}

/** A store that also serializes refreshes across processes (non-reentrant). */
export interface McpOAuthServerStore extends McpOAuthStateStore {
	withRefreshLock<T>(fn: () => Promise<T>): Promise<T>;
}

/** An in-memory store (one process); the lock only serializes callers in this process. */
export function createMemoryOAuthStore(
	initial?: McpOAuthState,
): McpOAuthServerStore & { current(): McpOAuthState | undefined } {
	let state = initial ? structuredClone(initial) : undefined;
	let chain: Promise<unknown> = Promise.resolve();
	return {
		current: () => state,
		async load() {
			return state ? structuredClone(state) : undefined;
		},
		async save(next) {
			state = structuredClone(next);
		},
		withRefreshLock(fn) {
			const run = chain.then(fn, fn);
			chain = run.catch(() => {});
			return run;
		},
	};
}

/** Stored state for another server URL is ignored; a cached discovery in pi's shape is read as tau's. */
export async function loadStateFor(store: McpOAuthStateStore, serverUrl: string): Promise<McpOAuthState> {
	const state = await store.load();
	if (!state || state.serverUrl !== serverUrl) return { serverUrl };
	if (state.discovery === undefined) return state;
	const { discovery, ...rest } = state;
	const readable = readStoredDiscovery(discovery);
	return readable ? { ...rest, discovery: readable } : rest;
}
