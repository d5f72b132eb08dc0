import type { McpServerEntry } from "./load-config.js";

/** Whether the entry sends a credential of its own, so a 401 is a rejected header, not a missing sign-in. */
export function hasOwnAuthorization(entry: McpServerEntry): boolean {
	if (entry.transport !== "http") return false;
	const headers = (entry.config as { headers?: Record<string, string> }).headers ?? {};
	return Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

/** HTTP servers tau signs in to with OAuth: no Authorization header and no `/login` provider of their own. */
export function usesOAuth(entry: McpServerEntry): boolean {
	return entry.transport === "http" && !hasOwnAuthorization(entry) && !(entry.config as { auth?: unknown }).auth;
}
