import type { McpOAuthConfig } from "../config/server-config.js";
import { errorMessage, McpOAuthAuthorizationRequiredError } from "../errors.js";
import type {
	FetchLike,
	McpAuthProvider,
	McpUnauthorizedContext,
} from "../transport/http/streamable-http-transport.js";
import type { McpClientMetadataDocuments } from "./client-metadata-document.js";
import { type McpRefreshOutcome, refreshStoredTokens } from "./sign-in.js";
import { loadStateFor, type McpOAuthServerStore } from "./state.js";
import { parseWwwAuthenticate, type WwwAuthenticateChallenge } from "./www-authenticate.js";

/**
 * Options of `createMcpAuthProvider`: the server, the token store, the OAuth settings and what to do on a challenge.
 */
export interface McpAuthProviderOptions {
	serverUrl: string;
	store: McpOAuthServerStore;
	/** Read only when a refresh actually happens. */
	settings: () => McpOAuthConfig;
	onChallenge?(challenge: WwwAuthenticateChallenge | undefined): void;
	redirectUrl?: string;
	clientName?: string;
	clientMetadataDocuments?: McpClientMetadataDocuments;
	fetch?: FetchLike;
	now?: () => number;
}

const EXPIRY_MARGIN_MS = 30_000;

/** The auth provider of one server's connection: stored tokens, refreshed on expiry or 401; never a browser. */
export function createMcpAuthProvider(options: McpAuthProviderOptions): McpAuthProvider & { settled(): Promise<void> } {
	let refreshing: Promise<McpRefreshOutcome> | undefined;
	const now = options.now ?? Date.now;

	const refresh = (rejected?: string): Promise<McpRefreshOutcome> => {
		// Shared by concurrent callers; once sent it is never cancelled, so its answer is always saved.
		refreshing ??= options.store
			.withRefreshLock(async () => {
				// Another process may have refreshed while we waited for the lock.
				const current = await loadStateFor(options.store, options.serverUrl);
				if (rejected !== undefined && current.tokens && current.tokens.access_token !== rejected) {
					return { refreshed: true };
				}
				return refreshStoredTokens({
					serverUrl: options.serverUrl,
					store: options.store,
					settings: options.settings(),
					redirectUrl: options.redirectUrl ?? "http://127.0.0.1/callback",
					...(options.clientName ? { clientName: options.clientName } : {}),
					...(options.clientMetadataDocuments ? { clientMetadataDocuments: options.clientMetadataDocuments } : {}),
					...(options.fetch ? { fetch: options.fetch } : {}),
					now,
				});
			})
			.finally(() => {
				refreshing = undefined;
			});
		return refreshing;
	};

	return {
		async token() {
			if (refreshing) await refreshing.catch(() => undefined);
			let state = await loadStateFor(options.store, options.serverUrl);
			if (state.tokens && state.tokensExpireAt !== undefined && state.tokensExpireAt - now() < EXPIRY_MARGIN_MS) {
				// A failed early refresh is ignored: the server's 401 decides.
				await refresh().catch(() => undefined);
				state = await loadStateFor(options.store, options.serverUrl);
			}
			return state.tokens?.access_token;
		},
		async onUnauthorized(context: McpUnauthorizedContext) {
			const challenge = parseWwwAuthenticate(context.response.headers.get("www-authenticate"));
			options.onChallenge?.(challenge);
			if (challenge?.error === "insufficient_scope") {
				throw new McpOAuthAuthorizationRequiredError("The MCP server needs more scope; sign in again");
			}
			const state = await loadStateFor(options.store, options.serverUrl);
			// Someone already replaced the rejected token: spending a rotating refresh token twice would break it.
			if (state.tokens && state.tokens.access_token !== context.token) return;
			const outcome = await refresh(context.token).catch(
				(error: unknown): McpRefreshOutcome => ({
					refreshed: false,
					reason: `Refreshing the token failed: ${errorMessage(error)}`,
				}),
			);
			if (!outcome.refreshed) throw new McpOAuthAuthorizationRequiredError(outcome.reason);
		},
		async settled() {
			while (refreshing) await refreshing.catch(() => undefined);
		},
	};
}
