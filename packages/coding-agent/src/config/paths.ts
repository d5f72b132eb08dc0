import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { CONFIG_DIR_NAME, ENV_AGENT_DIR } from "./app-identity.js";

/** Expands a leading `~` (alone or followed by a separator) to the home directory. */
export function expandTilde(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/") || path.startsWith("~\\")) return join(homedir(), path.slice(2));
	return path;
}

/** `$TAU_CODING_AGENT_DIR` (tilde expanded) when set and non-empty, else `~/.tau/agent`. */
export function getAgentDir(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env[ENV_AGENT_DIR];
	if (fromEnv && fromEnv.trim() !== "") return resolve(expandTilde(fromEnv));
	return join(homedir(), CONFIG_DIR_NAME, "agent");
}

/** The project configuration directory of a working directory: `<cwd>/.tau`. */
export function getProjectConfigDir(cwd: string): string {
	return join(cwd, CONFIG_DIR_NAME);
}

/** The agent folder and what tau creates in it are private to the user (docs/security.md). */
export const PRIVATE_DIR_MODE = 0o700;

/** Creates a folder (and missing parents) readable only by the user; an existing folder keeps its mode. */
export function makePrivateDir(path: string): void {
	mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}
