import { join } from "node:path";
import type { McpOAuthServerStore, McpOAuthState } from "@tau/mcp/oauth";
import { FileAuthStorageBackend } from "../../../config/index.js";
import { type RefreshLockTiming, refreshLockPath, withRefreshLockFile } from "./refresh-lock.js";

/** `mcp-auth.json` key of a server: same URL under two names means two sign-ins. */
export function credentialKey(namespace: string, url: string): string {
	return `${namespace}|${normalizedUrl(url)}`;
}

function normalizedUrl(url: string): string {
	const normalized = new URL(url);
	normalized.hash = "";
	return normalized.href;
}

export function mcpAuthPath(agentDir: string): string {
	return join(agentDir, "mcp-auth.json");
}

type StoreFile = Record<string, McpOAuthState>;

function parse(text: string | undefined): StoreFile {
	if (!text || text.trim() === "") return {};
	const value = JSON.parse(text) as unknown;
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as StoreFile) : {};
}

/**
 * One server's OAuth state inside `<agent-dir>/mcp-auth.json` (0600, every write under the file
 * lock), plus its cross-process refresh lock. A legacy URL-only key is migrated on first load.
 */
export function createMcpCredentialStore(
	agentDir: string,
	namespace: string,
	url: string,
	timing: RefreshLockTiming = {},
): McpOAuthServerStore {
	const backend = new FileAuthStorageBackend(mcpAuthPath(agentDir));
	const key = credentialKey(namespace, url);
	const legacyKey = normalizedUrl(url);
	return {
		load: () =>
			backend.withLockAsync(async (current) => {
				const file = parse(current);
				if (file[key] === undefined && file[legacyKey] !== undefined) {
					file[key] = file[legacyKey]!;
					delete file[legacyKey];
					return { result: file[key], next: JSON.stringify(file, null, 2) };
				}
				return { result: file[key] };
			}),
		save: (state) =>
			backend.withLockAsync(async (current) => {
				const file = parse(current);
				file[key] = state;
				return { result: undefined, next: JSON.stringify(file, null, 2) };
			}),
		withRefreshLock: (fn) => withRefreshLockFile(refreshLockPath(agentDir, key), fn, timing),
	};
}

/** Deletes a server's stored credentials; returns whether there were any. */
export async function deleteMcpCredentials(agentDir: string, namespace: string, url: string): Promise<boolean> {
	const backend = new FileAuthStorageBackend(mcpAuthPath(agentDir));
	const key = credentialKey(namespace, url);
	return backend.withLockAsync(async (current) => {
		const file = parse(current);
		if (file[key] === undefined) return { result: false };
		delete file[key];
		return { result: true, next: JSON.stringify(file, null, 2) };
	});
}

/** The stored tokens of a server as JSON, read without the lock (writes are atomic). */
export function peekMcpTokens(agentDir: string, namespace: string, url: string): string {
	const file = parse(new FileAuthStorageBackend(mcpAuthPath(agentDir)).readCurrent?.());
	return JSON.stringify(file[credentialKey(namespace, url)]?.tokens ?? null);
}
