import { resolve } from "node:path";
import { findSessionById, listAllSessions, listSessions } from "./listing.js";

export interface ResolvedSessionArgument {
	path: string;
	/** `global` means the session belongs to another project (the CLI offers to fork it). */
	scope: "path" | "local" | "global";
}

/**
 * Resolves a `--session` / `--fork` argument: a path, an exact local id, a local id prefix, then an
 * exact or prefix id across all sessions. Throws `No session found matching '<arg>'`.
 */
export async function resolveSessionArgument(
	arg: string,
	where: { cwd: string; sessionDir: string; agentDir: string; customSessionDir?: string },
): Promise<ResolvedSessionArgument> {
	if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) {
		return { path: resolve(arg), scope: "path" };
	}
	const exact = findSessionById(where.sessionDir, arg, where.cwd);
	if (exact) return { path: exact, scope: "local" };
	const local = (await listSessions(where.sessionDir, where.cwd)).find((info) => info.id.startsWith(arg));
	if (local) return { path: local.path, scope: "local" };
	const all = await listAllSessions({ sessionDir: where.customSessionDir, agentDir: where.agentDir });
	const global = all.find((info) => info.id === arg) ?? all.find((info) => info.id.startsWith(arg));
	if (global) return { path: global.path, scope: "global" };
	throw new Error(`No session found matching '${arg}'`);
}
