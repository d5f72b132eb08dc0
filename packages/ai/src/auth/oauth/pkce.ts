import { createHash, randomBytes } from "node:crypto";

export interface PkcePair {
	verifier: string;
	challenge: string;
}

/** An RFC 7636 verifier and its S256 challenge. */
export function createPkce(): PkcePair {
	const verifier = randomBytes(32).toString("base64url");
	const challenge = createHash("sha256").update(verifier).digest("base64url");
	return { verifier, challenge };
}

/** An unguessable `state` value tying the callback to this login. */
export function createState(): string {
	return randomBytes(16).toString("hex");
}

/** What every PKCE authorization request names (RFC 6749 §4.1.1, RFC 7636 with S256). */
export interface AuthorizationRequest {
	clientId: string;
	redirectUri: string;
	scope: string;
	challenge: string;
	state: string;
}

/** The query of an authorization request: the standard fields, then the provider's own. */
export function authorizationQuery(request: AuthorizationRequest, extra: Record<string, string> = {}): URLSearchParams {
	return new URLSearchParams({
		response_type: "code",
		client_id: request.clientId,
		redirect_uri: request.redirectUri,
		scope: request.scope,
		code_challenge: request.challenge,
		code_challenge_method: "S256",
		state: request.state,
		...extra,
	});
}
