import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AuthContext } from "../types/auth.js";

/** Ambient auth context: `process.env` and the file system (a leading `~` means the home directory). */
export function defaultProviderAuthContext(): AuthContext {
	return {
		env: async (name) => process.env[name],
		fileExists: async (path) => {
			const resolved = path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
			try {
				await access(resolved);
				return true;
			} catch {
				return false;
			}
		},
	};
}

/** `context` with request-scoped env values winning over the ambient ones. */
export function overlayAuthEnv(context: AuthContext, env: Record<string, string>): AuthContext {
	return {
		env: async (name) => (Object.hasOwn(env, name) ? env[name] : context.env(name)),
		fileExists: (path) => context.fileExists(path),
	};
}
