import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FetchLike, McpHttpServerConfig } from "@tau/mcp";
import {
	completeMcpSignIn,
	type McpOAuthServerStore,
	McpSignInCancelledError,
	responseFromRedirectUrl,
	startMcpSignIn,
} from "@tau/mcp/oauth";
import type { McpServerEntry } from "../config/load-config.js";
import { createMcpCredentialStore } from "./credential-store.js";
import type { RefreshLockTiming } from "./refresh-lock.js";

export interface McpSignInRequest {
	agentDir: string;
	/** Shows or opens the authorization URL (never called when a refresh was enough). */
	openUrl(url: string): void | Promise<void>;
	/** Resolves with a redirect URL the user pasted (e.g. over SSH); optional. */
	readPastedUrl?: () => Promise<string>;
	/** Default 5 minutes. */
	timeoutMs?: number;
	signal?: AbortSignal;
	fetch?: FetchLike;
	lockTiming?: RefreshLockTiming;
	/** Replaces the `mcp-auth.json` store (SDK `credentials` option). */
	store?: McpOAuthServerStore;
}

interface Callback {
	code: string;
	state: string;
	iss?: string;
}

/** Serves the loopback redirect URI and resolves with the first matching callback. */
async function listenForCallback(config: McpHttpServerConfig): Promise<{
	redirectUrl: string;
	callback: Promise<Callback>;
	close(): Promise<void>;
}> {
	const configured = config.oauth?.callbackUrl ? new URL(config.oauth.callbackUrl) : undefined;
	const path = configured?.pathname ?? "/callback";
	const port = configured?.port ? Number(configured.port) : (config.oauth?.callbackPort ?? 0);
	let resolve: (callback: Callback) => void = () => {};
	let reject: (error: Error) => void = () => {};
	const callback = new Promise<Callback>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		if (url.pathname !== path) {
			res.writeHead(404).end();
			return;
		}
		const error = url.searchParams.get("error");
		const code = url.searchParams.get("code");
		const state = url.searchParams.get("state");
		res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
		if (error || !code || !state) {
			res.end("Sign-in failed. You can close this window.");
			reject(new Error(`Sign-in failed: ${error ?? "no code in the callback"}`));
			return;
		}
		res.end("Signed in. You can close this window and return to tau.");
		const iss = url.searchParams.get("iss");
		resolve(iss ? { code, state, iss } : { code, state });
	});
	await new Promise<void>((done, fail) => {
		server.once("error", fail);
		server.listen(port, "127.0.0.1", done);
	});
	const actualPort = (server.address() as AddressInfo).port;
	const host = configured?.hostname ?? "127.0.0.1";
	return {
		redirectUrl: `http://${host}:${actualPort}${path}`,
		callback,
		close: () =>
			new Promise((done) => {
				server.closeAllConnections();
				server.close(() => done());
			}),
	};
}

/** Browser sign-in of an HTTP server (D.9): loopback listener, redirect, code exchange. */
export async function signInMcpServer(
	entry: McpServerEntry,
	request: McpSignInRequest,
): Promise<"authorized" | "signed-in"> {
	const config = entry.config as McpHttpServerConfig;
	const store =
		request.store ?? createMcpCredentialStore(request.agentDir, entry.namespace, config.url, request.lockTiming);
	const listener = await listenForCallback(config);
	try {
		const options = {
			serverUrl: config.url,
			store,
			settings: config.oauth ?? {},
			redirectUrl: listener.redirectUrl,
			clientName: "tau",
			...(request.fetch ? { fetch: request.fetch } : {}),
		};
		const start = await startMcpSignIn(options);
		if (start.kind === "authorized") return "authorized";
		const timeoutMs = request.timeoutMs ?? 5 * 60_000;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const cancelled = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new McpSignInCancelledError("MCP sign-in timed out")), timeoutMs);
			request.signal?.addEventListener("abort", () => reject(new McpSignInCancelledError()), { once: true });
		});
		try {
			await request.openUrl(start.authorizationUrl);
			const pasted = request.readPastedUrl
				? request
						.readPastedUrl()
						.then((text) => responseFromRedirectUrl(text, { redirectUrl: start.redirectUrl, state: start.state }))
				: new Promise<never>(() => {});
			// Whichever loses the race may still reject later; that must not surface as unhandled.
			for (const loser of [listener.callback, pasted, cancelled]) loser.catch(() => {});
			const response = await Promise.race([listener.callback, pasted, cancelled]);
			await completeMcpSignIn({ ...options, authorization: start, response });
		} finally {
			clearTimeout(timer);
		}
		return "signed-in";
	} finally {
		await listener.close();
	}
}
