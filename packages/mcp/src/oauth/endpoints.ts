import { OAuthInsecureEndpointError } from "./errors.js";

function isLoopback(host: string): boolean {
	return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/** https anywhere, http only on loopback; anything else (file:, custom schemes) is refused. */
export function assertSecureEndpoint(value: string): URL {
	if (!URL.canParse(value)) throw new OAuthInsecureEndpointError(value);
	const url = new URL(value);
	if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname))) return url;
	throw new OAuthInsecureEndpointError(value);
}

/** Only http(s) endpoints are accepted from metadata; the OS must never open other schemes. */
export function assertHttpEndpoint(value: unknown, field: string): string {
	if (typeof value !== "string" || !URL.canParse(value)) throw new Error(`OAuth metadata ${field} is not a URL`);
	const protocol = new URL(value).protocol;
	if (protocol !== "https:" && protocol !== "http:") throw new OAuthInsecureEndpointError(value);
	return value;
}

export function isLoopbackUrl(value: string): boolean {
	return URL.canParse(value) && isLoopback(new URL(value).hostname);
}
