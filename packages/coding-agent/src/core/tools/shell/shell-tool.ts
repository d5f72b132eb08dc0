import type { AgentToolResult, AgentToolUpdateCallback } from "@tau/agent";
import type { BashOperations } from "../operations.js";
import type { BuiltinToolContext } from "../types.js";
import { type BashToolDetails, runShellCommand } from "./run-shell-command.js";
import { buildShellEnvironment, type SessionEnvironmentOptions } from "./session-env.js";

/** What a `spawnHook` receives and returns: it may rewrite the command, cwd and environment. */
export interface BashSpawnContext {
	command: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export interface ShellToolOptions extends SessionEnvironmentOptions {
	/** Prepended to every command on its own line (setting `shellCommandPrefix`). */
	commandPrefix?: string;
	spawnHook?: (context: BashSpawnContext) => BashSpawnContext;
}

/**
 * One shell tool call (docs/design/tools.md#bash): prefix, session environment (injected before the
 * hook so the hook can see and change it), `spawnHook`, then the backend.
 */
export function executeShellTool(
	ops: BashOperations,
	options: ShellToolOptions,
	request: { command: string; timeout: number | undefined; cwd: string; filePrefix: string },
	signal: AbortSignal | undefined,
	onUpdate: AgentToolUpdateCallback<BashToolDetails | undefined> | undefined,
	ctx: BuiltinToolContext | undefined,
): Promise<AgentToolResult<BashToolDetails | undefined>> {
	const command = options.commandPrefix ? `${options.commandPrefix}\n${request.command}` : request.command;
	let spawn: BashSpawnContext = { command, cwd: ctx?.cwd || request.cwd, env: buildShellEnvironment(ctx, options) };
	if (options.spawnHook) spawn = options.spawnHook(spawn);
	const timeout = request.timeout !== undefined ? { timeout: request.timeout } : {};
	return runShellCommand(ops, { ...spawn, ...timeout, filePrefix: request.filePrefix }, signal, onUpdate);
}
