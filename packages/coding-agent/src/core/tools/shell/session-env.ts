import { join } from "node:path";
import { getAgentDir } from "../../../config/paths.js";
import type { BuiltinToolContext } from "../types.js";

export interface SessionEnvironmentOptions {
	/** Inject the session variables (default true). */
	exposeSessionEnvironment?: boolean;
	/** Also inject the pi names (`PI_SESSION_ID`, …) for scripts written for pi. */
	mirrorPiEnvironment?: boolean;
	/** Directory prepended to PATH (default `~/.tau/agent/bin`). */
	binDir?: string;
}

const SESSION_VARIABLES = ["SESSION_ID", "SESSION_FILE", "PROVIDER", "MODEL", "REASONING_LEVEL"] as const;

/** The tau bin directory, where downloaded helper binaries live. */
export function getToolBinDir(): string {
	return join(getAgentDir(), "bin");
}

/**
 * Builds the environment of one shell command (docs/design/tools.md#shell-environment): the bin dir first on PATH,
 * inherited session variables removed so a parent session never leaks into a child's commands,
 * then this session's values, computed per command.
 */
export function buildShellEnvironment(
	ctx: BuiltinToolContext | undefined,
	options: SessionEnvironmentOptions = {},
	base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base };
	const pathKey = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
	const separator = process.platform === "win32" ? ";" : ":";
	const binDir = options.binDir ?? getToolBinDir();
	env[pathKey] = env[pathKey] ? `${binDir}${separator}${env[pathKey]}` : binDir;

	const prefixes = options.mirrorPiEnvironment ? ["TAU_", "PI_"] : ["TAU_"];
	for (const prefix of prefixes) for (const name of SESSION_VARIABLES) delete env[prefix + name];
	if (options.exposeSessionEnvironment === false || !ctx) return env;

	const values: Record<(typeof SESSION_VARIABLES)[number], string | undefined> = {
		SESSION_ID: ctx.sessionManager?.getSessionId(),
		SESSION_FILE: ctx.sessionManager?.getSessionFile(),
		PROVIDER: ctx.model?.provider,
		MODEL: ctx.model?.id,
		REASONING_LEVEL: ctx.thinkingLevel,
	};
	for (const prefix of prefixes) {
		for (const name of SESSION_VARIABLES) {
			const value = values[name];
			if (value !== undefined) env[prefix + name] = value;
		}
	}
	return env;
}
