/** HTTP exchanges with OAuth endpoints, with failures turned into messages a user can act on. */

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The provider refused the refresh token or grant (revoked, expired, or already used): only a new
 * sign-in helps, so the message says so.
 */
export class OAuthGrantRejectedError extends Error {
	constructor(
		readonly provider: string,
		readonly detail: string,
	) {
		super(
			`${provider} rejected the saved sign-in (${detail}): it was revoked or has expired; sign in again with /login`,
		);
		this.name = "OAuthGrantRejectedError";
	}
}

export interface OAuthRequest {
	/** Who answers, for messages ("Anthropic"). */
	provider: string;
	url: string;
	method?: "GET" | "POST";
	/** Sent as JSON, or form-encoded with `form: true`. */
	body?: Record<string, string>;
	form?: boolean;
	headers?: Record<string, string>;
	signal?: AbortSignal;
	/** A 400/401 with `invalid_grant` (or a 401 at all, with `unauthorizedIsRejection`) means sign in again. */
	unauthorizedIsRejection?: boolean;
	/** A device-code poll: `authorization_pending` and `slow_down` answers are returned, not thrown. */
	devicePoll?: boolean;
}

const DEVICE_POLL_ANSWERS = new Set(["authorization_pending", "slow_down"]);

function bodyText(request: OAuthRequest): string | undefined {
	if (!request.body) return undefined;
	return request.form ? new URLSearchParams(request.body).toString() : JSON.stringify(request.body);
}

function parseJson(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value && typeof value === "object" && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** Sends one request and returns its JSON object; an OAuth error body becomes the error message. */
export async function oauthRequest(request: OAuthRequest): Promise<Record<string, unknown>> {
	const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
	const body = bodyText(request);
	const response = await fetch(request.url, {
		method: request.method ?? "POST",
		headers: {
			Accept: "application/json",
			...(body === undefined
				? {}
				: { "Content-Type": request.form ? "application/x-www-form-urlencoded" : "application/json" }),
			...request.headers,
		},
		...(body === undefined ? {} : { body }),
		signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
	});
	const text = await response.text();
	const json = parseJson(text);
	if (response.ok && json) return json;
	const code = typeof json?.error === "string" ? json.error : undefined;
	if (json && request.devicePoll && code && DEVICE_POLL_ANSWERS.has(code)) return json;
	const description = typeof json?.error_description === "string" ? json.error_description : undefined;
	const detail = [code, description].filter(Boolean).join(": ") || `HTTP ${response.status}`;
	const rejected =
		code === "invalid_grant" || (request.unauthorizedIsRejection === true && [401, 403].includes(response.status));
	if (rejected) throw new OAuthGrantRejectedError(request.provider, detail);
	if (response.ok) throw new Error(`${request.provider} answered ${request.url} with a body that is not JSON`);
	throw new Error(`${request.provider} sign-in request failed (${response.status}): ${detail}`);
}

export function requireString(json: Record<string, unknown>, field: string, provider: string): string {
	const value = json[field];
	if (typeof value !== "string" || value === "") throw new Error(`${provider} token response lacks "${field}"`);
	return value;
}

export function requireNumber(json: Record<string, unknown>, field: string, provider: string): number {
	const value = json[field];
	if (typeof value !== "number" || !Number.isFinite(value)) {
		throw new Error(`${provider} token response lacks "${field}"`);
	}
	return value;
}

/** The PKCE authorization-code exchange every browser sign-in ends with (RFC 7636). */
export interface AuthorizationCodeExchange {
	provider: string;
	url: string;
	clientId: string;
	code: string;
	verifier: string;
	redirectUri: string;
	/** Form-encoded instead of JSON. */
	form?: boolean;
	/** Provider-specific fields (Anthropic's `state`, OpenAI's `resource`). */
	extra?: Record<string, string>;
	signal?: AbortSignal | undefined;
}

/** Trades an authorization code for tokens; the answer is the token endpoint's JSON. */
export function exchangeAuthorizationCode(exchange: AuthorizationCodeExchange): Promise<Record<string, unknown>> {
	return oauthRequest({
		provider: exchange.provider,
		url: exchange.url,
		...(exchange.form ? { form: true } : {}),
		body: {
			grant_type: "authorization_code",
			client_id: exchange.clientId,
			code: exchange.code,
			code_verifier: exchange.verifier,
			redirect_uri: exchange.redirectUri,
			...exchange.extra,
		},
		...(exchange.signal ? { signal: exchange.signal } : {}),
	});
}
