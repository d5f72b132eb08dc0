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
