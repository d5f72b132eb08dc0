import { execFileSync } from "node:child_process";

/** A field value could not be resolved; the server fails to connect with this message. */
export class McpInterpolationError extends Error {
	constructor(server: string, field: string, detail: string) {
		super(`MCP server "${server}": cannot resolve ${field}: ${detail}`);
		this.name = "McpInterpolationError";
	}
}

export interface InterpolationContext {
	server: string;
	env: NodeJS.ProcessEnv;
	/** Shell command timeout (10 s). */
	commandTimeoutMs?: number;
}

function runCommand(command: string, timeoutMs: number): string | undefined {
	try {
		const shell = process.platform === "win32" ? "cmd.exe" : "/bin/sh";
		const args = process.platform === "win32" ? ["/d", "/s", "/c", command] : ["-c", command];
		const out = execFileSync(shell, args, {
			encoding: "utf8",
			timeout: timeoutMs,
			stdio: ["ignore", "pipe", "ignore"],
		}).trim();
		return out === "" ? undefined : out;
	} catch {
		return undefined;
	}
}

/**
 * `!cmd` runs a shell command (trimmed stdout); otherwise `${NAME}`/`$NAME` read the environment,
 * `$$` is `$`, `$!` is `!`, and malformed references stay literal.
 */
export function interpolateValue(value: string, field: string, context: InterpolationContext): string {
	if (value.startsWith("!")) {
		const out = runCommand(value.slice(1), context.commandTimeoutMs ?? 10_000);
		if (out === undefined)
			throw new McpInterpolationError(context.server, field, "command failed or printed nothing");
		return out;
	}
	return value.replace(
		/\$(\$|!|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
		(match, token: string, braced?: string, bare?: string) => {
			if (token === "$") return "$";
			if (token === "!") return "!";
			const name = braced ?? bare;
			if (name === undefined) return match;
			const resolved = context.env[name];
			if (resolved === undefined)
				throw new McpInterpolationError(context.server, field, `environment variable ${name} is not set`);
			return resolved;
		},
	);
}

export function interpolateRecord(
	record: Record<string, string> | undefined,
	field: string,
	context: InterpolationContext,
): Record<string, string> | undefined {
	if (!record) return undefined;
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(record)) out[key] = interpolateValue(value, `${field}.${key}`, context);
	return out;
}
