import { McpSignInCancelledError } from "./errors.js";

/** The parameters of the OAuth redirect back to the client: authorization code, state and (RFC 9207) issuer. */
export interface AuthorizationResponse {
	code: string;
	state: string;
	iss?: string;
}

/**
 * Reads a redirect URL the user pasted (sign-in over SSH, where the browser cannot reach the
 * loopback listener). It must target the redirect URI, carry the expected `state` and no `error`.
 */
export function responseFromRedirectUrl(
	pasted: string,
	expected: { redirectUrl: string; state: string },
): AuthorizationResponse {
	const text = pasted.trim();
	if (text === "") throw new McpSignInCancelledError();
	if (!URL.canParse(text)) throw new Error("That is not a URL; paste the whole address the browser ended on");
	const url = new URL(text);
	const redirect = new URL(expected.redirectUrl);
	if (url.origin !== redirect.origin || url.pathname !== redirect.pathname) {
		throw new Error(`The pasted URL does not go to ${redirect.origin}${redirect.pathname}`);
	}
	const error = url.searchParams.get("error");
	if (error)
		throw new Error(
			`Sign-in failed: ${error}${url.searchParams.get("error_description") ? ` (${url.searchParams.get("error_description")})` : ""}`,
		);
	const state = url.searchParams.get("state");
	if (state !== expected.state) throw new Error("The pasted URL belongs to another sign-in (state mismatch)");
	const code = url.searchParams.get("code");
	if (!code) throw new Error("The pasted URL has no authorization code");
	const iss = url.searchParams.get("iss");
	return iss ? { code, state, iss } : { code, state };
}
