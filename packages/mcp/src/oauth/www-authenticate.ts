/** A parsed `WWW-Authenticate` challenge of a 401 or 403: scheme, resource metadata URL, scope and error. */
export interface WwwAuthenticateChallenge {
	scheme: "Bearer" | "DPoP";
	resourceMetadata?: URL;
	scope?: string;
	error?: string;
	errorDescription?: string;
}

/** Parses a `Bearer`/`DPoP` challenge; other schemes yield `undefined`, empty values count as absent. */
export function parseWwwAuthenticate(header: string | null | undefined): WwwAuthenticateChallenge | undefined {
	if (!header) return undefined;
	const match = /^\s*(Bearer|DPoP)\b(.*)$/i.exec(header);
	if (!match) return undefined;
	const scheme = match[1]!.toLowerCase() === "dpop" ? "DPoP" : "Bearer";
	const params = new Map<string, string>();
	const pattern = /([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
	for (const part of match[2]!.matchAll(pattern)) {
		params.set(part[1]!.toLowerCase(), (part[2] ?? part[3] ?? "").replace(/\\(.)/g, "$1"));
	}
	const challenge: WwwAuthenticateChallenge = { scheme };
	const metadata = params.get("resource_metadata");
	if (metadata && URL.canParse(metadata)) challenge.resourceMetadata = new URL(metadata);
	const scope = params.get("scope");
	if (scope) challenge.scope = scope;
	const error = params.get("error");
	if (error) challenge.error = error;
	const description = params.get("error_description");
	if (description) challenge.errorDescription = description;
	return challenge;
}
