import type { ParsedArgs } from "../cli/args.js";
import { errorMessage } from "../core/errors.js";
import {
	assertValidSessionId,
	getDefaultSessionDir,
	readSessionHeader,
	resolveSessionArgument,
	type SessionInfo,
	SessionManager,
} from "../core/session/index.js";
import { AmbiguousSessionError } from "../core/session/session-lookup.js";
import { reportWarning, StartupError } from "./diagnostics.js";

/** The session flags that conflict with `--fork` / `--session-id` (docs/design/cli.md#options), in reporting order. */
function presentFlags(
	args: ParsedArgs,
	names: ReadonlyArray<"session" | "continue" | "resume" | "noSession">,
): string[] {
	const labels = { session: "--session", continue: "--continue", resume: "--resume", noSession: "--no-session" };
	return names
		.filter((name) => (name === "session" ? args.session !== undefined : args[name]))
		.map((name) => labels[name]);
}

/** Step 3 of startup: flag combinations and the session id format, checked before any session opens. */
export function validateSessionFlags(args: ParsedArgs): void {
	if (args.fork !== undefined) {
		const conflicts = presentFlags(args, ["session", "continue", "resume", "noSession"]);
		if (conflicts.length > 0) throw new StartupError(`--fork cannot be combined with ${conflicts.join(", ")}`);
	}
	if (args.sessionId !== undefined) {
		const conflicts = presentFlags(args, ["session", "continue", "resume"]);
		if (conflicts.length > 0) throw new StartupError(`--session-id cannot be combined with ${conflicts.join(", ")}`);
		try {
			assertValidSessionId(args.sessionId);
		} catch (error) {
			throw new StartupError(errorMessage(error));
		}
	}
	if (args.name !== undefined && args.name.trim() === "") throw new StartupError("--name requires a non-empty value");
}

export interface SessionSelectionContext {
	cwd: string;
	agentDir: string;
	/** The resolved session directory, or undefined for the per-cwd default. */
	sessionDir: string | undefined;
	/** Both stdin and stdout are terminals. */
	hasTerminal: boolean;
	/**
	 * Asks which session an ambiguous id prefix meant (interactive mode only); undefined means the
	 * user cancelled. Without it an ambiguous prefix is an error that lists the matches.
	 */
	choose?: (prefix: string, matches: readonly SessionInfo[]) => Promise<SessionInfo | undefined>;
	/** Leave message bodies unread until first use (the interactive mode's first frame, docs/design/session-runtime.md#opening-a-long-session). */
	deferBodies?: boolean;
}

/** Picks the session to run (docs/design/cli.md#session-selection), first match wins. */
export async function selectSession(args: ParsedArgs, context: SessionSelectionContext): Promise<SessionManager> {
	const { cwd, agentDir, sessionDir } = context;
	const storage = { agentDir, ...(context.deferBodies ? { deferBodies: true } : {}) };
	const idOption = args.sessionId !== undefined ? { id: args.sessionId } : undefined;
	if (args.noSession || args.help || args.listModels !== undefined) return SessionManager.inMemory(cwd, idOption);

	const lookup = () => ({
		cwd,
		agentDir,
		sessionDir: sessionDir ?? getDefaultSessionDir(cwd, agentDir),
		...(sessionDir ? { customSessionDir: sessionDir } : {}),
	});

	if (args.fork !== undefined) {
		const source = await lookupSession(args.fork, lookup(), context.choose);
		if (args.sessionId !== undefined && SessionManager.findById(cwd, args.sessionId, sessionDir, agentDir)) {
			throw new StartupError(`Session already exists with id '${args.sessionId}'`);
		}
		return SessionManager.forkFrom(source.path, cwd, sessionDir, idOption, storage);
	}
	if (args.session !== undefined) {
		const found = await lookupSession(args.session, lookup(), context.choose);
		if (found.scope === "global") {
			// tau never asks on stdin outside the interactive mode (pi asked in every mode).
			const other = readSessionHeader(found.path);
			throw new StartupError(
				`Session ${other?.id ?? args.session} belongs to another project (${other?.cwd ?? "unknown"}); use --fork to copy it into this directory`,
			);
		}
		return SessionManager.open(found.path, sessionDir, undefined, storage);
	}
	if (args.resume) {
		throw new StartupError(
			context.hasTerminal
				? "--resume needs the interactive session picker, which is not available in this version of tau yet; use --session <id> or --continue"
				: "--resume requires an interactive terminal",
		);
	}
	if (args.continue) return SessionManager.continueRecent(cwd, sessionDir, storage);
	if (args.sessionId !== undefined) {
		const existing = SessionManager.findById(cwd, args.sessionId, sessionDir, agentDir);
		if (existing) return SessionManager.open(existing, sessionDir, undefined, storage);
		reportWarning(`No project session found with id '${args.sessionId}'; creating a new session with that id.`);
		return SessionManager.create(cwd, sessionDir, idOption, storage);
	}
	return SessionManager.create(cwd, sessionDir, {}, storage);
}

async function lookupSession(
	arg: string,
	where: Parameters<typeof resolveSessionArgument>[1],
	choose: SessionSelectionContext["choose"],
) {
	try {
		return await resolveSessionArgument(arg, where);
	} catch (error) {
		if (error instanceof AmbiguousSessionError && choose) {
			const chosen = await choose(error.prefix, error.matches);
			if (!chosen) throw new StartupError("", 0);
			return lookupSession(chosen.id, where, undefined);
		}
		throw new StartupError(errorMessage(error));
	}
}
