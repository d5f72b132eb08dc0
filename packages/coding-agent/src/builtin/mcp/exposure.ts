import type { McpExposure } from "@tau/mcp/config";
import type { ToolExposure } from "../../core/extensions/index.js";
import type { McpServerEntry } from "./config/load-config.js";

function globMatches(pattern: string, name: string): boolean {
	const source = pattern
		.split("*")
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
		.join(".*");
	return new RegExp(`^${source}$`).test(name);
}

/** Exact `toolExposure` key, else the first matching `*` pattern, else the server's exposure (D.5.2). */
export function getMcpToolExposure(entry: McpServerEntry, toolName: string): McpExposure {
	const map = entry.config.toolExposure ?? {};
	const exact = map[toolName];
	if (exact) return exact;
	for (const [key, value] of Object.entries(map)) {
		if (key.includes("*") && globMatches(key, toolName)) return value;
	}
	return entry.config.exposure ?? "codemode";
}

/** MCP `codemode` tools are core `deferred`: script-callable and loadable, never listed inline. */
export function toToolExposure(exposure: McpExposure): ToolExposure {
	return exposure === "codemode" ? "deferred" : exposure;
}

/** Every exposure a server's configuration can produce. */
export function configuredExposures(entry: McpServerEntry): Set<McpExposure> {
	return new Set([entry.config.exposure ?? "codemode", ...Object.values(entry.config.toolExposure ?? {})]);
}
