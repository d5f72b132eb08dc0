import { resolve } from "node:path";
import { findSessionById, listAllSessions, listSessions } from "./listing.js";
import type { SessionInfo } from "./types.js";

export interface ResolvedSessionArgument {
	path: string;
	/** `global` means the session belongs to another project (the CLI offers to fork it). */
	scope: "path" | "local" | "global";
}

/** One line about a session for lists of matches: id, last activity, directory and the first message. */
export function describeSessionMatch(info: SessionInfo): string {
	const when = info.modified.toISOString().slice(0, 16).replace("T", " ");
	const first = info.firstMessage.replace(/\s+/g, " ").trim();
	const preview = first.length > 50 ? `${first.slice(0, 49)}…` : first;
	return `${info.id}  ${when}  ${info.cwd}${preview ? `  "${preview}"` : ""}`;
}

/**
 * An id prefix that matches several sessions. It is never settled by guessing (Pi silently takes
 * the newest): the interactive mode asks which one, other modes fail with the list.
 */
export class AmbiguousSessionError extends Error {
	constructor(
		readonly prefix: string,
		readonly matches: readonly SessionInfo[],
	) {
		super(
			`Session prefix '${prefix}' matches ${matches.length} sessions; give more of the id:\n${matches.map((info) => `  ${describeSessionMatch(info)}`).join("\n")}`,
		);
		this.name = "AmbiguousSessionError";
	}
}

/** The sessions an id prefix selects: none, exactly one, or an `AmbiguousSessionError`. */
function onlyMatch(prefix: string, sessions: readonly SessionInfo[]): SessionInfo | undefined {
	const matches = sessions.filter((info) => info.id.startsWith(prefix));
	if (matches.length > 1) throw new AmbiguousSessionError(prefix, matches);
	return matches[0];
}

/**
 * Resolves a `--session` / `--fork` argument: a path, an exact local id, a local id prefix, then an
 * exact or prefix id across all sessions. Throws `No session found matching '<arg>'`, or an
 * `AmbiguousSessionError` listing the sessions when a prefix matches more than one.
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
	const local = onlyMatch(arg, await listSessions(where.sessionDir, where.cwd));
	if (local) return { path: local.path, scope: "local" };
	const all = await listAllSessions({ sessionDir: where.customSessionDir, agentDir: where.agentDir });
	const global = all.find((info) => info.id === arg) ?? onlyMatch(arg, all);
	if (global) return { path: global.path, scope: "global" };
	throw new Error(`No session found matching '${arg}'`);
}
