/** An OAuth error answer (`error` code of RFC 6749 §5.2), or `server_error` for other failures. */
export class OAuthError extends Error {
	readonly code: string;
	readonly errorUri: string | undefined;
	constructor(code: string, description?: string, errorUri?: string) {
		super(description ? `${code}: ${description}` : code);
		this.name = "OAuthError";
		this.code = code;
		this.errorUri = errorUri;
	}
}

/** Metadata `issuer` or an authorization response `iss` differs from what was expected. */
export class OAuthIssuerMismatchError extends Error {
	readonly expected: string | undefined;
	readonly received: string | undefined;
	constructor(expected: string | undefined, received: string | undefined) {
		super(`OAuth issuer mismatch: expected ${expected ?? "(none)"}, received ${received ?? "(none)"}`);
		this.name = "OAuthIssuerMismatchError";
		this.expected = expected;
		this.received = received;
	}
}

/** An endpoint that is neither https nor loopback http (or not http at all). */
export class OAuthInsecureEndpointError extends Error {
	constructor(url: string) {
		super(`Refusing insecure OAuth endpoint ${url}`);
		this.name = "OAuthInsecureEndpointError";
	}
}

/** Thrown when dynamic client registration (RFC 7591) with the authorization server fails. */
export class OAuthRegistrationError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "OAuthRegistrationError";
	}
}

/** Thrown when another process holds the refresh lock of this server's tokens; retry after it finished. */
export class McpRefreshLockBusyError extends Error {
	constructor() {
		super("Another process is refreshing this MCP server's token");
		this.name = "McpRefreshLockBusyError";
	}
}

/** Thrown when the user cancelled an MCP sign-in or the browser redirect reported an error. */
export class McpSignInCancelledError extends Error {
	constructor(message = "MCP sign-in cancelled") {
		super(message);
		this.name = "McpSignInCancelledError";
	}
}
