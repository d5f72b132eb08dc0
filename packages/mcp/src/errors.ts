/** Standard JSON-RPC 2.0 error codes. */
export const JSON_RPC_ERROR_CODES = {
	parseError: -32700,
	invalidRequest: -32600,
	methodNotFound: -32601,
	invalidParams: -32602,
	internalError: -32603,
} as const;

/** A JSON-RPC error answered by the peer (or raised by a local handler). */
export class McpError extends Error {
	readonly code: number;
	readonly data: unknown;
	constructor(code: number, message: string, data?: unknown) {
		super(message);
		this.name = "McpError";
		this.code = code;
		this.data = data;
	}
}

/** The connection is closed (or not yet open), so the request cannot be sent or answered. */
export class McpConnectionClosedError extends Error {
	constructor(message = "MCP connection closed") {
		super(message);
		this.name = "McpConnectionClosedError";
	}
}

/** Rejects a request the server did not answer in time; the client also sends the server a cancellation. */
export class McpTimeoutError extends Error {
	readonly timeoutMs: number;
	constructor(method: string, timeoutMs: number) {
		super(`MCP request ${method} timed out after ${timeoutMs} ms`);
		this.name = "McpTimeoutError";
		this.timeoutMs = timeoutMs;
	}
}

/** Rejects a request whose abort signal fired; the client also sends the server a cancellation. */
export class McpAbortError extends Error {
	constructor(message = "MCP request aborted") {
		super(message);
		this.name = "McpAbortError";
	}
}

/** A non-2xx HTTP answer from a Streamable HTTP server. */
export class McpHttpError extends Error {
	readonly status: number;
	readonly body: string;
	constructor(status: number, body: string, message?: string) {
		super(message ?? `MCP server answered HTTP ${status}${body ? `: ${body}` : ""}`);
		this.name = "McpHttpError";
		this.status = status;
		this.body = body;
	}
}

/** HTTP 401: the server wants credentials. */
export class McpAuthRequiredError extends McpHttpError {
	readonly wwwAuthenticate: string | undefined;
	constructor(body: string, wwwAuthenticate: string | undefined) {
		super(401, body, "MCP server requires authorization (HTTP 401)");
		this.name = "McpAuthRequiredError";
		this.wwwAuthenticate = wwwAuthenticate;
	}
}

/** HTTP 404 for a request carrying a session id: the server forgot the session, so the request did not run. */
export class McpSessionExpiredError extends McpHttpError {
	constructor(body: string) {
		super(404, body, "MCP session expired (HTTP 404)");
		this.name = "McpSessionExpiredError";
	}
}

/** Stored credentials cannot be used or refreshed; the user must sign in in a browser. */
export class McpOAuthAuthorizationRequiredError extends Error {
	constructor(message = "MCP server requires sign-in") {
		super(message);
		this.name = "McpOAuthAuthorizationRequiredError";
	}
}

export function abortReason(signal: AbortSignal): string {
	const reason: unknown = signal.reason;
	if (reason instanceof Error) return reason.message;
	if (typeof reason === "string") return reason;
	return "aborted";
}

/** The message of anything thrown: an `Error`'s message, anything else as a string. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
