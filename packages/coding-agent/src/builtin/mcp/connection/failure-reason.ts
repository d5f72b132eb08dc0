import { McpAuthRequiredError, McpConnectionClosedError, type McpTransport, StdioTransport } from "@tau/mcp";
import { errorMessage } from "../../../core/errors.js";
import { hasOwnAuthorization } from "../config/entry-auth.js";
import type { McpServerEntry } from "../config/load-config.js";

/** Characters of a failed server's stderr kept in its error (docs/mcp.md, "Logs"). */
const STDERR_TAIL_CHARS = 2000;

/** The last `STDERR_TAIL_CHARS` of a stdio server's stderr, cut at a line start. */
export function stderrTail(transport: McpTransport | undefined): string {
	if (!(transport instanceof StdioTransport)) return "";
	const text = transport.stderr.trim();
	if (text.length <= STDERR_TAIL_CHARS) return text;
	const cut = text.slice(-STDERR_TAIL_CHARS);
	const newline = cut.indexOf("\n");
	return newline === -1 ? cut : cut.slice(newline + 1);
}

/** `exited with code 3` or `was stopped by SIGKILL`, once a stdio server has ended. */
export function exitDescription(transport: McpTransport | undefined): string | undefined {
	if (!(transport instanceof StdioTransport)) return undefined;
	const exit = transport.exit;
	if (!exit) return undefined;
	return exit.code !== null ? `the server exited with code ${exit.code}` : `the server was stopped by ${exit.signal}`;
}

/**
 * The reason shown wherever a server's state is (tau mcp list, /mcp, the startup notice): the
 * error, how the process ended and the tail of its stderr for stdio servers; the HTTP status and
 * body, or the OAuth error, for HTTP servers (their messages carry them).
 */
export function describeFailure(error: unknown, entry: McpServerEntry, transport: McpTransport | undefined): string {
	let message = errorMessage(error);
	if (error instanceof McpAuthRequiredError && hasOwnAuthorization(entry)) {
		message = "The server rejected the configured Authorization header (HTTP 401)";
	}
	const exit = exitDescription(transport);
	if (exit && error instanceof McpConnectionClosedError) message = `${message}: ${exit}`;
	const tail = stderrTail(transport);
	return tail ? `${message}\n${tail}` : message;
}
