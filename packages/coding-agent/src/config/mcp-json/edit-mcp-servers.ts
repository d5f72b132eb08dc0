import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomicSync } from "../../core/fs/atomic-write.js";

/** The indentation a JSON file uses (defaults to a tab, like tau's own files). */
function detectIndent(text: string): string | number {
	const match = /\n([ \t]+)"/.exec(text);
	return match ? match[1]! : "\t";
}

/**
 * Changes the `mcpServers` object of an mcp.json, keeping every other key and the file's
 * indentation. `edit` returns false to leave the file untouched.
 */
export function editMcpServers(path: string, edit: (servers: Record<string, unknown>) => boolean): boolean {
	const text = existsSync(path) ? readFileSync(path, "utf8").replace(/^\uFEFF/, "") : "";
	const root = text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
	if (typeof root !== "object" || root === null || Array.isArray(root))
		throw new Error(`${path}: must contain a JSON object`);
	const servers = (root.mcpServers ?? {}) as Record<string, unknown>;
	if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
		throw new Error(`${path}: "mcpServers" must be an object`);
	}
	if (!edit(servers)) return false;
	root.mcpServers = servers;
	mkdirSync(dirname(path), { recursive: true });
	writeFileAtomicSync(path, `${JSON.stringify(root, null, detectIndent(text))}\n`);
	return true;
}
