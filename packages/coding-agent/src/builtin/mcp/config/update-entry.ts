import type { McpExposure } from "@tau/mcp/config";
import { editMcpServers } from "../../../config/mcp-json/edit-mcp-servers.js";
import { projectConfigPath } from "./config-paths.js";
import type { McpServerEntry } from "./load-config.js";

export type EntryChange = { field: "enabled"; value: boolean } | { field: "exposure"; value: McpExposure };

/** Defaults are written as absent keys in normal entries; overrides always state their value. */
const DEFAULTS = { enabled: true, exposure: "codemode" } as const;

/**
 * Writes an `enabled`/`exposure` change to the file that defines the entry, or to its project
 * override (`inProject` creates one for a user server). Returns the file written.
 */
export function writeEntryChange(
	entry: McpServerEntry,
	change: EntryChange,
	options: { cwd: string; inProject?: boolean },
): string {
	if (entry.scope === "extension")
		throw new Error(
			`MCP server "${entry.name}" is registered by an extension; its settings are not stored in a file`,
		);
	const overridePath = options.inProject ? projectConfigPath(options.cwd) : entry.overrideSource;
	if (overridePath && entry.scope === "user") {
		editMcpServers(overridePath, (servers) => {
			const current = servers[entry.name];
			servers[entry.name] = {
				...(typeof current === "object" && current !== null ? current : {}),
				[change.field]: change.value,
			};
			return true;
		});
		return overridePath;
	}
	editMcpServers(entry.source, (servers) => {
		const current = servers[entry.name];
		if (typeof current !== "object" || current === null)
			throw new Error(`MCP server "${entry.name}" is no longer in ${entry.source}`);
		const next = { ...(current as Record<string, unknown>) };
		if (DEFAULTS[change.field] === change.value) delete next[change.field];
		else next[change.field] = change.value;
		servers[entry.name] = next;
		return true;
	});
	return entry.source;
}
