import { APP_NAME } from "../../config/app-identity.js";

/** Shell-quotes an argument when it holds anything a shell would interpret. */
function shellQuote(value: string): string {
	return /^[A-Za-z0-9_./:@%+=-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The command printed on exit that reopens a saved session. It names the session file: a path opens
 * from any directory, while `--session <id>` finds a session only from its own project's directory
 * (elsewhere it is another project's session, which tau refuses to open without `--fork`).
 */
export function resumeCommand(sessionFile: string): string {
	return `${APP_NAME} --session ${shellQuote(sessionFile)}`;
}
