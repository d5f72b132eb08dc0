import { createHash } from "node:crypto";

const MAX_TOOL_NAME = 64;

/** The namespace of a server's tools: `mcp__<server>` with `-` as `_`. */
export function mcpNamespace(server: string): string {
	return `mcp__${server.replace(/-/g, "_")}`;
}

function plainName(server: string, tool: string): string {
	return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

function hashedName(server: string, tool: string): string {
	const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
	return `${plainName(server, tool).slice(0, 55)}_${hash}`;
}

/**
 * Assigns model-facing names to one server's tools. `owners` maps names to `<server>\0<tool>` for the
 * whole session, so a tool keeps its name across re-listings and list order never decides who
 * gets the plain name.
 */
export function createMcpToolName(
	server: string,
	tools: readonly string[],
	owners: Map<string, string>,
): Map<string, string> {
	const distinct = [...new Set(tools)];
	const plainCounts = new Map<string, number>();
	for (const tool of distinct) {
		const plain = plainName(server, tool);
		plainCounts.set(plain, (plainCounts.get(plain) ?? 0) + 1);
	}
	const assigned = new Map<string, string>();
	const usedHere = new Set<string>();
	for (const tool of distinct) {
		const key = `${server}\0${tool}`;
		const plain = plainName(server, tool);
		const owner = owners.get(plain);
		const taken =
			plain.length > MAX_TOOL_NAME ||
			(owner !== undefined && owner !== key) ||
			usedHere.has(plain) ||
			(plainCounts.get(plain) ?? 0) >= 2;
		const name = taken ? hashedName(server, tool) : plain;
		owners.set(name, key);
		usedHere.add(name);
		assigned.set(tool, name);
	}
	return assigned;
}

/** A one-line server summary: first line of the description, else of the server's instructions. */
export function mcpServerSummary(description: string | undefined, instructions: string | undefined): string {
	const source = description?.trim() || instructions?.trim() || "";
	return source.split("\n")[0]!.trim();
}

/** Input schemas must be objects with properties for model providers. */
export function normalizeMcpInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
	return { ...schema, type: schema.type ?? "object", properties: schema.properties ?? {} };
}
