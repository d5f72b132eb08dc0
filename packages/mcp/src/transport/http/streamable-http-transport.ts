import {
	abortReason,
	errorMessage,
	McpAbortError,
	McpAuthRequiredError,
	McpConnectionClosedError,
	McpHttpError,
	McpSessionExpiredError,
} from "../../errors.js";
import { type JsonRpcId, type JsonRpcMessage, parseJsonRpcMessage } from "../../protocol.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type McpSendOptions, type McpTransport, TransportListeners } from "../transport.js";
import { SseParser } from "./sse-parser.js";

/** The `fetch` signature the HTTP transport and the OAuth code call; pass one to route or stub requests. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * What `McpAuthProvider.onUnauthorized` receives: the 401 response, the server URL, the fetch to use and the token that
 * failed.
 */
export interface McpUnauthorizedContext {
	response: Response;
	serverUrl: URL;
	fetch: FetchLike;
	token?: string;
}

/**
 * Supplies the bearer token of each HTTP request and reacts to a 401 (refresh or sign in) before the request is
 * retried.
 */
export interface McpAuthProvider {
	token(): Promise<string | undefined>;
	onUnauthorized?(context: McpUnauthorizedContext): Promise<void>;
}

/**
 * Backoff of the HTTP transport when its server-sent event stream drops: first and longest delay, and how often to
 * retry.
 */
export interface ReconnectOptions {
	initialDelayMs?: number;
	maxDelayMs?: number;
	maxRetries?: number;
}

/**
 * Options of `StreamableHttpTransport`: the server URL, headers, authorization, reconnection and message size limit.
 */
export interface StreamableHttpTransportOptions {
	url: string | URL;
	headers?: Record<string, string>;
	fetch?: FetchLike;
	openGetStream?: boolean;
	maxMessageBytes?: number;
	authProvider?: McpAuthProvider;
	reconnect?: ReconnectOptions;
}

const ERROR_BODY_BYTES = 8 * 1024;

/** Whether a failure may go away on its own (network errors, 408, 429, 5xx). */
function isRetryable(error: unknown): boolean {
	if (error instanceof McpHttpError) return error.status === 408 || error.status === 429 || error.status >= 500;
	if (error instanceof TypeError) return true;
	const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
	return typeof code === "string" && (code.startsWith("E") || code.startsWith("UND_ERR"));
}

async function readLimited(response: Response, limit: number): Promise<{ text: string; overflow: boolean }> {
	const reader = response.body?.getReader();
	if (!reader) return { text: "", overflow: false };
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			chunks.push(value.subarray(0, Math.max(0, value.byteLength - (size - limit))));
			await reader.cancel().catch(() => {});
			return { text: Buffer.concat(chunks).toString("utf8"), overflow: true };
		}
		chunks.push(value);
	}
	return { text: Buffer.concat(chunks).toString("utf8"), overflow: false };
}

async function discard(response: Response): Promise<void> {
	await response.body?.cancel().catch(() => {});
}

/** MCP Streamable HTTP: one POST per message, JSON or SSE answers, an optional GET stream. */
export class StreamableHttpTransport extends TransportListeners implements McpTransport {
	sessionId: string | undefined;
	private protocolVersion: string | undefined;
	private readonly url: URL;
	private readonly fetchFn: FetchLike;
	private readonly maxBytes: number;
	private readonly closeController = new AbortController();
	/** Aborts the session DELETE of a closing transport whose host stopped waiting. */
	private readonly releaseController = new AbortController();
	private closed = false;
	private closePromise: Promise<void> | undefined;
	private lastToken: string | undefined;
	private recovery: Promise<void> | undefined;
	private getStreamOpened = false;

	constructor(private readonly options: StreamableHttpTransportOptions) {
		super();
		this.url = new URL(options.url);
		const fetchFn = options.fetch ?? globalThis.fetch;
		this.fetchFn = (input, init) => fetchFn(input, init);
		this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
	}

	async start(): Promise<void> {}

	setProtocolVersion(version: string): void {
		this.protocolVersion = version;
	}

	async send(message: JsonRpcMessage, options: McpSendOptions = {}): Promise<void> {
		if (this.closed) throw new McpConnectionClosedError();
		const expectsAnswer = "method" in message && "id" in message && message.id !== undefined;
		const response = await this.post(message, expectsAnswer, options.signal);
		if (!expectsAnswer) {
			await discard(response);
			if ("method" in message && message.method === "notifications/initialized") this.openGetStream();
			return;
		}
		const id = (message as { id: JsonRpcId }).id;
		if (response.status === 202 || response.status === 204) {
			throw new McpHttpError(response.status, "", `MCP server answered a request with HTTP ${response.status}`);
		}
		const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
		if (type === "application/json") {
			const { text, overflow } = await readLimited(response, this.maxBytes);
			if (overflow) throw new Error(`MCP response exceeds ${this.maxBytes} bytes`);
			this.emitJson(JSON.parse(text) as unknown);
			return;
		}
		if (type === "text/event-stream") {
			void this.consumeResponseStream(response, id);
			return;
		}
		await discard(response);
		throw new Error(`MCP server answered with unsupported content type "${type}"`);
	}

	close(): Promise<void> {
		this.closePromise ??= this.shutdown();
		return this.closePromise;
	}

	release(): void {
		this.releaseController.abort();
	}

	private headers(extra: Record<string, string>, token: string | undefined): Headers {
		const headers = new Headers(this.options.headers);
		for (const [key, value] of Object.entries(extra)) headers.set(key, value);
		if (this.sessionId !== undefined) headers.set("mcp-session-id", this.sessionId);
		if (this.protocolVersion !== undefined) headers.set("mcp-protocol-version", this.protocolVersion);
		if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
		return headers;
	}

	/** Sends with auth; on 401 (or 403 insufficient_scope) runs the shared recovery once and retries. */
	private async post(
		message: JsonRpcMessage,
		expectsAnswer: boolean,
		signal: AbortSignal | undefined,
	): Promise<Response> {
		return this.dispatch(
			(token) => ({
				method: "POST",
				headers: this.headers(
					{ accept: "application/json, text/event-stream", "content-type": "application/json" },
					token,
				),
				body: JSON.stringify(message),
			}),
			expectsAnswer,
			signal,
		);
	}

	private async dispatch(
		init: (token: string | undefined) => RequestInit,
		fetchToken: boolean,
		signal: AbortSignal | undefined,
	): Promise<Response> {
		const provider = this.options.authProvider;
		for (let attempt = 0; ; attempt++) {
			// After a recovery every retry asks for the (possibly refreshed) token.
			const token = provider && (fetchToken || attempt > 0) ? await provider.token() : this.lastToken;
			// A request cancelled while auth was refreshing must never reach the server.
			if (signal?.aborted) throw new McpAbortError(abortReason(signal));
			if (this.closed) throw new McpConnectionClosedError();
			if (token !== undefined) this.lastToken = token;
			const requestSignal = signal
				? AbortSignal.any([signal, this.closeController.signal])
				: this.closeController.signal;
			const response = await this.fetchFn(this.url, { ...init(token), signal: requestSignal });
			const session = response.headers.get("mcp-session-id");
			if (session) this.sessionId = session;
			if (response.ok) return response;
			const challenge = response.headers.get("www-authenticate") ?? undefined;
			const unauthorized =
				response.status === 401 || (response.status === 403 && /error="?insufficient_scope/.test(challenge ?? ""));
			if (unauthorized && attempt === 0 && provider?.onUnauthorized) {
				await this.recover(response, token);
				continue;
			}
			throw await this.httpError(response, challenge, init(undefined).headers as Headers);
		}
	}

	/** Concurrent 401s share one recovery; the recovery is not tied to any request's signal. */
	private recover(response: Response, token: string | undefined): Promise<void> {
		const provider = this.options.authProvider!;
		if (!this.recovery) {
			const context: McpUnauthorizedContext = { response, serverUrl: this.url, fetch: this.fetchFn };
			if (token !== undefined) context.token = token;
			this.recovery = provider.onUnauthorized!(context).finally(() => {
				this.recovery = undefined;
			});
		}
		const shared = this.recovery;
		return discard(response).then(() => shared);
	}

	private async httpError(response: Response, challenge: string | undefined, sent: Headers): Promise<Error> {
		const { text } = await readLimited(response, ERROR_BODY_BYTES);
		if (response.status === 401) return new McpAuthRequiredError(text.slice(0, 500), challenge);
		if (response.status === 404 && sent.has("mcp-session-id")) return new McpSessionExpiredError(text.slice(0, 500));
		return new McpHttpError(response.status, text.slice(0, 500));
	}

	private emitJson(value: unknown): void {
		const items = Array.isArray(value) ? value : [value];
		for (const item of items) {
			const message = parseJsonRpcMessage(item);
			if (typeof message === "string") this.errors.emit(new Error(`Invalid message from MCP server: ${message}`));
			else this.messages.emit(message);
		}
	}

	/**
	 * Reads an SSE stream. Returns whether events arrived and the last event id; `answered` reports
	 * whether the response for `waitFor` was seen.
	 */
	private async readStream(
		response: Response,
		state: { lastEventId: string | undefined; retryMs: number | undefined; sawEvents: boolean; answered: boolean },
		waitFor: JsonRpcId | undefined,
	): Promise<void> {
		const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
		if (!reader) return;
		const parser = new SseParser({
			maxBytes: this.maxBytes,
			onId: (id) => {
				state.lastEventId = id;
			},
			onRetry: (ms) => {
				state.retryMs = ms;
			},
			onEvent: (event) => {
				state.sawEvents = true;
				if (event.event !== "message") return;
				let value: unknown;
				try {
					value = JSON.parse(event.data);
				} catch (error) {
					this.errors.emit(new Error(`Invalid JSON in MCP event: ${(error as Error).message}`));
					return;
				}
				const message = parseJsonRpcMessage(value);
				if (typeof message === "string") {
					this.errors.emit(new Error(`Invalid message from MCP server: ${message}`));
					return;
				}
				if (waitFor !== undefined && !("method" in message) && message.id === waitFor) state.answered = true;
				this.messages.emit(message);
			},
		});
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) return;
				parser.push(value);
			}
		} catch (error) {
			await reader.cancel().catch(() => {});
			throw error;
		}
	}

	private async consumeResponseStream(response: Response, id: JsonRpcId): Promise<void> {
		const state = {
			lastEventId: undefined as string | undefined,
			retryMs: undefined as number | undefined,
			sawEvents: false,
			answered: false,
		};
		let failure: unknown;
		let current: Response | undefined = response;
		let attempt = 0;
		while (!this.closed) {
			try {
				state.sawEvents = false;
				if (current) await this.readStream(current, state, id);
				if (state.answered) return;
				failure = new Error("stream ended before the response");
			} catch (error) {
				if (this.closed) return;
				if (error instanceof Error && /exceeds/.test(error.message)) {
					this.errors.emit(error);
					await this.close();
					return;
				}
				failure = error;
			}
			if (state.sawEvents) attempt = 0;
			// Without event ids there is nothing to resume from.
			const resumable =
				state.lastEventId !== undefined &&
				((failure instanceof Error && /ended/.test(failure.message)) || isRetryable(failure));
			if (!resumable || attempt >= this.maxRetries()) break;
			await this.delay(this.backoff(attempt++, state.retryMs));
			if (this.closed) return;
			try {
				current = await this.dispatch(
					(token) => ({
						method: "GET",
						headers: this.headers({ accept: "text/event-stream", "last-event-id": state.lastEventId! }, token),
					}),
					false,
					undefined,
				);
			} catch (error) {
				failure = error;
				current = undefined;
				if (!isRetryable(error)) break;
			}
		}
		if (this.closed) return;
		const reason = errorMessage(failure);
		this.messages.emit({ jsonrpc: "2.0", id, error: { code: -32603, message: `response stream failed: ${reason}` } });
	}

	private openGetStream(): void {
		if (this.options.openGetStream === false || this.getStreamOpened) return;
		this.getStreamOpened = true;
		void this.runGetStream();
	}

	private async runGetStream(): Promise<void> {
		const state = {
			lastEventId: undefined as string | undefined,
			retryMs: undefined as number | undefined,
			sawEvents: false,
			answered: false,
		};
		let attempt = 0;
		while (!this.closed) {
			const startedAt = Date.now();
			try {
				const headers: Record<string, string> = { accept: "text/event-stream" };
				if (state.lastEventId !== undefined) headers["last-event-id"] = state.lastEventId;
				const response = await this.dispatch(
					(token) => ({ method: "GET", headers: this.headers(headers, token) }),
					false,
					undefined,
				);
				state.sawEvents = false;
				await this.readStream(response, state, undefined);
				if (state.sawEvents || Date.now() - startedAt > this.maxDelay()) attempt = 0;
			} catch (error) {
				if (this.closed) return;
				if (error instanceof McpHttpError && error.status === 405) return;
				if (!isRetryable(error)) {
					this.errors.emit(error instanceof Error ? error : new Error(String(error)));
					return;
				}
			}
			if (this.closed) return;
			if (attempt >= this.maxRetries()) {
				this.errors.emit(new Error("MCP GET stream: reconnect attempts exhausted"));
				return;
			}
			await this.delay(this.backoff(attempt++, state.retryMs));
		}
	}

	private maxRetries(): number {
		return this.options.reconnect?.maxRetries ?? 5;
	}
	private maxDelay(): number {
		return this.options.reconnect?.maxDelayMs ?? 30_000;
	}
	private backoff(attempt: number, retryMs: number | undefined): number {
		if (retryMs !== undefined) return retryMs;
		return Math.min((this.options.reconnect?.initialDelayMs ?? 1000) * 2 ** attempt, this.maxDelay());
	}

	/** Resolves after `ms`, or at once when the transport closes. */
	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(done, ms);
			timer.unref?.();
			const signal = this.closeController.signal;
			function done() {
				clearTimeout(timer);
				signal.removeEventListener("abort", done);
				resolve();
			}
			signal.addEventListener("abort", done, { once: true });
		});
	}

	private async shutdown(): Promise<void> {
		this.closed = true;
		this.closeController.abort(new McpConnectionClosedError());
		if (this.sessionId !== undefined) {
			// Best effort, with the last token: close must never trigger a refresh.
			const headers = this.headers({}, this.lastToken);
			const signal = AbortSignal.any([AbortSignal.timeout(1000), this.releaseController.signal]);
			await this.fetchFn(this.url, { method: "DELETE", headers, signal })
				.then(discard)
				.catch(() => {});
		}
		this.closes.emit();
		this.closes.clear();
	}
}
