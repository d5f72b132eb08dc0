import { mcpServerSummary } from "@tau/mcp/config";
import type { McpServerEntry } from "../config/load-config.js";
import { configuredExposures } from "../exposure.js";

/** Upper bound of the `mcp_servers` prompt section. */
export const MAX_SERVERS_SECTION_CHARS = 4096;

export interface ServerSectionInput {
	name: string;
	namespace: string;
	reach: "codemode" | "tool_search";
	description?: string;
	/** Server instructions, known only after connect. */
	instructions?: string;
}

function intro(reaches: Set<string>): string {
	const clauses: string[] = [];
	if (reaches.has("codemode")) clauses.push("call the tools of servers marked (codemode) from `codemode` scripts");
	if (reaches.has("tool_search")) clauses.push("load the tools of servers marked (tool_search) with `tool_search`");
	return `These MCP servers' tools are not declared to you; ${clauses.join("; ")}.`;
}

function cut(text: string, budget: number): string {
	if (budget <= 0) return "";
	if (text.length <= budget) return text;
	return `${text.slice(0, Math.max(0, budget - 1))}…`;
}

/** Renders the section (D.8); `undefined` when no server is listed. */
export function renderServersSection(input: readonly ServerSectionInput[]): string | undefined {
	const servers = [...input].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	if (servers.length === 0) return undefined;
	const head = intro(new Set(servers.map((server) => server.reach)));
	const bare = (server: ServerSectionInput) => `- ${server.namespace} (${server.reach})`;
	const overflowLine = (n: number) => `- … ${n} more server(s); find their tools with searchTools()`;
	let kept = servers.length;
	const size = () => {
		const lines = [head, ...servers.slice(0, kept).map(bare)];
		if (kept < servers.length) lines.push(overflowLine(servers.length - kept));
		return lines.join("\n").length;
	};
	while (kept > 0 && size() > MAX_SERVERS_SECTION_CHARS) kept--;
	const base = size();
	const budget = kept === 0 ? 0 : Math.min(250, Math.floor((MAX_SERVERS_SECTION_CHARS - base) / kept) - 2);
	const lines = [head];
	for (const server of servers.slice(0, kept)) {
		const summary = cut(mcpServerSummary(server.description, server.instructions), budget);
		lines.push(summary ? `${bare(server)}: ${summary}` : bare(server));
	}
	if (kept < servers.length) lines.push(overflowLine(servers.length - kept));
	return lines.join("\n");
}

/**
 * Inputs of the section: enabled servers with a `codemode` or `deferred` exposure, with the
 * instructions of those already connected.
 */
export function serverSectionInputs(
	entries: readonly McpServerEntry[],
	instructionsOf: (server: string) => string | undefined,
	reachCodemode: boolean,
): ServerSectionInput[] {
	const inputs: ServerSectionInput[] = [];
	for (const entry of entries) {
		if (!entry.enabled) continue;
		const exposures = configuredExposures(entry);
		if (!exposures.has("codemode") && !exposures.has("deferred")) continue;
		const input: ServerSectionInput = {
			name: entry.name,
			namespace: entry.namespace,
			reach: reachCodemode && exposures.has("codemode") ? "codemode" : "tool_search",
		};
		if (entry.config.description) input.description = entry.config.description;
		const instructions = instructionsOf(entry.name);
		if (instructions) input.instructions = instructions;
		inputs.push(input);
	}
	return inputs;
}
