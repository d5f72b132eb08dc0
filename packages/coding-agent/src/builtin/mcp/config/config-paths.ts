import { existsSync } from "node:fs";
import { join } from "node:path";
import { getProjectConfigDir } from "../../../config/index.js";

export function userConfigPath(agentDir: string): string {
	return join(agentDir, "mcp.json");
}

export function projectConfigPath(cwd: string): string {
	return join(getProjectConfigDir(cwd), "mcp.json");
}

export interface McpConfigPresence {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
	registered?: readonly unknown[];
}

/**
 * Whether anything could name an MCP server: a registration, the user mcp.json, or the project
 * one in a trusted project. Without any, a session never loads the MCP client (docs/design/resources.md#mcp-on-demand).
 */
export function mightConfigureMcp(sources: McpConfigPresence): boolean {
	return (
		(sources.registered?.length ?? 0) > 0 ||
		existsSync(userConfigPath(sources.agentDir)) ||
		(sources.projectTrusted && existsSync(projectConfigPath(sources.cwd)))
	);
}
