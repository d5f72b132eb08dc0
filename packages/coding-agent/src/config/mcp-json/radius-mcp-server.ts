import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mcpNamespace, validateMcpServerConfig } from "@tau/mcp/config";
import { parseJsonFile } from "../fs/json-file.js";
import { editMcpServers } from "./edit-mcp-servers.js";

/**
 * The Radius MCP server and the Radius sign-in (docs/providers.md "Radius"): after `/login radius` or
 * `tau auth login radius`, the global mcp.json gets a server at the public gateway's `/mcp` that uses
 * that login, unless a global server already does.
 */
export const RADIUS_MCP_URL = "https://radius.pi.dev/mcp";

/** The entry to write: the file, the server's name in it, and its configuration. */
export interface RadiusMcpServerPlan {
	mcpPath: string;
	name: string;
	config: Record<string, unknown>;
}

const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/u, "");

/** The valid servers of the global mcp.json by name; a missing or unreadable file has none. */
function globalServers(mcpPath: string): Map<string, Record<string, unknown>> {
	const servers = new Map<string, Record<string, unknown>>();
	if (!existsSync(mcpPath)) return servers;
	let root: unknown;
	try {
		root = parseJsonFile(mcpPath, readFileSync(mcpPath, "utf8"));
	} catch {
		return servers;
	}
	const entries = (root as { mcpServers?: unknown } | null)?.mcpServers;
	if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return servers;
	for (const [name, raw] of Object.entries(entries)) {
		if (validateMcpServerConfig(name, raw).kind !== "invalid") servers.set(name, raw as Record<string, unknown>);
	}
	return servers;
}

/**
 * The global mcp.json entry that points the Radius MCP server at the login of `providerId`: the existing
 * server at that address re-pointed (its OAuth sign-in dropped, since the login replaces it), or a new one
 * named `radius` (`radius-mcp`, `radius-mcp-2` … when the namespace is taken). Undefined when a global
 * server already uses that login.
 */
export function planRadiusMcpServer(providerId: string, agentDir: string): RadiusMcpServerPlan | undefined {
	const mcpPath = join(agentDir, "mcp.json");
	const servers = globalServers(mcpPath);
	const existing = [...servers].find(
		([, config]) =>
			typeof config.url === "string" &&
			withoutTrailingSlashes(config.url) === withoutTrailingSlashes(RADIUS_MCP_URL),
	);
	if ((existing?.[1].auth as { provider?: unknown } | undefined)?.provider === providerId) return undefined;
	let name = existing?.[0] ?? "radius";
	if (!existing) {
		const namespaces = new Set([...servers.keys()].map(mcpNamespace));
		for (let suffix = 1; namespaces.has(mcpNamespace(name)); suffix++) {
			name = suffix === 1 ? "radius-mcp" : `radius-mcp-${suffix}`;
		}
	}
	const config: Record<string, unknown> = {
		...(existing?.[1] ?? { url: RADIUS_MCP_URL }),
		auth: { provider: providerId },
	};
	delete config.oauth;
	return { mcpPath, name, config };
}

/** Writes the planned entry; true when it replaced a server of that name. */
export function writeRadiusMcpServer(plan: RadiusMcpServerPlan): boolean {
	let replaced = false;
	editMcpServers(plan.mcpPath, (servers) => {
		replaced = servers[plan.name] !== undefined;
		servers[plan.name] = plan.config;
		return true;
	});
	return replaced;
}
