import { appendFileSync, renameSync, statSync } from "node:fs";

const MAX_LOG_BYTES = 5 * 1024 * 1024;

function messageText(data: unknown): string {
	if (typeof data === "string") return data;
	try {
		return JSON.stringify(data);
	} catch {
		return String(data);
	}
}

/** Appends one server log notification to `mcp.log`; rotates past 5 MiB; never throws. */
export function appendMcpLog(
	path: string,
	server: string,
	params: Record<string, unknown> | undefined,
	now = new Date(),
): void {
	try {
		const level = typeof params?.level === "string" ? params.level : "info";
		const logger = typeof params?.logger === "string" ? params.logger : "-";
		const [first, ...rest] = messageText(params?.data).split("\n");
		const line = [
			`${now.toISOString()} [${server}] ${level} ${logger}: ${first}`,
			...rest.map((part) => `    ${part}`),
		].join("\n");
		try {
			if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
		} catch {
			// No log yet.
		}
		appendFileSync(path, `${line}\n`, { mode: 0o600 });
	} catch {
		// Logging must never disturb a session.
	}
}
