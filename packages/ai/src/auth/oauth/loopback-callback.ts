import { createServer, type ServerResponse } from "node:http";
import type { AuthInteraction } from "../../types/auth.js";

/** A local HTTP server that receives the browser's redirect after sign-in. */
export interface LoopbackCallback {
	/** The `redirect_uri` to register in the authorization request. */
	redirectUri: string;
	/** The redirect, once the browser arrives; rejects on a provider error. */
	authorization: Promise<CallbackAuthorization>;
	close(): void;
}

/** What the provider's redirect carried: the code, and every query parameter for flows that need more. */
export interface CallbackAuthorization {
	code: string;
	/** Empty when the user pasted only the code. */
	params: URLSearchParams;
}

export interface LoopbackOptions {
	provider: string;
	port: number;
	path: string;
	/** The hostname written into `redirect_uri` (some providers register `localhost`). */
	redirectHost: string;
	/** Required in the callback; a provider that sends none gets an unguessable `path` instead. */
	state: string | undefined;
	/** Passed to the page the browser lands on. */
	signal?: AbortSignal;
}

function answer(response: ServerResponse, status: number, message: string): void {
	response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
	response.end(`${message}\n`);
}

/** Listens on 127.0.0.1 only; a request with the wrong path or `state` is refused and ignored. */
export function startLoopbackCallback(options: LoopbackOptions): Promise<LoopbackCallback> {
	let resolveCode!: (authorization: CallbackAuthorization) => void;
	let rejectCode!: (error: Error) => void;
	const authorization = new Promise<CallbackAuthorization>((resolve, reject) => {
		resolveCode = resolve;
		rejectCode = reject;
	});
	authorization.catch(() => undefined);
	let handled = false;
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? "/", "http://127.0.0.1");
		if (url.pathname !== options.path) return answer(response, 404, "Not found.");
		if (options.state !== undefined && url.searchParams.get("state") !== options.state) {
			return answer(response, 400, "State mismatch.");
		}
		if (handled) return answer(response, 409, "This sign-in was already handled.");
		const error = url.searchParams.get("error");
		const received = url.searchParams.get("code");
		if (!error && !received) return answer(response, 400, "Missing authorization code.");
		handled = true;
		if (error) {
			const description = url.searchParams.get("error_description") ?? error;
			answer(response, 400, `${options.provider} sign-in failed: ${description}`);
			rejectCode(new Error(`${options.provider} sign-in failed: ${description}`));
			return;
		}
		answer(response, 200, `Signed in to ${options.provider}. You can close this page.`);
		resolveCode({ code: received!, params: url.searchParams });
	});
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port, "127.0.0.1", () => {
			server.off("error", reject);
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : options.port;
			const close = () => {
				server.close();
				server.closeAllConnections();
				rejectCode(new Error("Login cancelled"));
			};
			options.signal?.addEventListener("abort", close, { once: true });
			resolve({ redirectUri: `http://${options.redirectHost}:${port}${options.path}`, authorization, close });
		});
	});
}

export interface PastedAuthorization {
	code?: string;
	state?: string;
	/** The query of a pasted URL or query string. */
	params: URLSearchParams;
}

/** What a user pastes: the whole redirect URL, a `code#state` pair, a query string or the bare code. */
export function parsePastedAuthorization(input: string): PastedAuthorization {
	const value = input.trim();
	if (!value) return { params: new URLSearchParams() };
	if (/^https?:\/\//.test(value)) return fromQuery(new URL(value).searchParams);
	if (value.includes("#")) {
		const [code, state] = value.split("#", 2);
		return withoutEmpty({ code, state }, new URLSearchParams());
	}
	if (value.includes("code=")) return fromQuery(new URLSearchParams(value.replace(/^\?/, "")));
	return { code: value, params: new URLSearchParams() };
}

function fromQuery(params: URLSearchParams): PastedAuthorization {
	return withoutEmpty({ code: params.get("code"), state: params.get("state") }, params);
}

function withoutEmpty(
	parts: { code?: string | null; state?: string | null },
	params: URLSearchParams,
): PastedAuthorization {
	return { ...(parts.code ? { code: parts.code } : {}), ...(parts.state ? { state: parts.state } : {}), params };
}

/** The authorization code alone, from the callback or the paste (see `authorizationFromCallbackOrPaste`). */
export async function codeFromCallbackOrPaste(
	interaction: AuthInteraction,
	callback: LoopbackCallback | undefined,
	expectedState: string | undefined,
	message: string,
): Promise<string> {
	return (await authorizationFromCallbackOrPaste(interaction, callback, expectedState, message)).code;
}

/**
 * The browser's redirect, or what the user pasted when the browser runs on another machine (over
 * SSH): whichever comes first. Without a callback server only the paste works.
 */
export async function authorizationFromCallbackOrPaste(
	interaction: AuthInteraction,
	callback: LoopbackCallback | undefined,
	expectedState: string | undefined,
	message: string,
): Promise<CallbackAuthorization> {
	const pasteCancel = new AbortController();
	const pasted = interaction.prompt({ type: "manual_code", message, signal: pasteCancel.signal }).then((input) => {
		const parsed = parsePastedAuthorization(input);
		if (expectedState !== undefined && parsed.state !== undefined && parsed.state !== expectedState) {
			throw new Error("OAuth state mismatch");
		}
		if (!parsed.code) throw new Error("Missing authorization code");
		return { code: parsed.code, params: parsed.params };
	});
	try {
		return await (callback ? Promise.race([callback.authorization, pasted]) : pasted);
	} finally {
		pasteCancel.abort();
		pasted.catch(() => undefined);
	}
}
