// Real MCP servers from the npm registry for the MCP tests and the MCP startup benchmark:
// server-everything, server-filesystem and server-memory, installed once into
// node_modules/.cache/tau-mcp-servers (or $TAU_MCP_SERVERS_DIR) and reused.
//
// As a script: installs if needed and prints `TAU_MCP_SERVERS=<bin dir>`, or one line
// `skipped: <reason>` (exit code 0 either way: tests that need the servers skip with the reason).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const VERSION = "2026.8.31";
/** Package name => the executable it installs. */
export const MCP_TEST_SERVERS = {
	"@modelcontextprotocol/server-everything": "mcp-server-everything",
	"@modelcontextprotocol/server-filesystem": "mcp-server-filesystem",
	"@modelcontextprotocol/server-memory": "mcp-server-memory",
};

/** @returns {{ bin: string } | { skipped: string }} */
export function ensureMcpTestServers() {
	if (process.env.TAU_MCP_SERVERS === "0") return { skipped: "TAU_MCP_SERVERS=0" };
	const dir = resolve(
		process.env.TAU_MCP_SERVERS_DIR || join(import.meta.dirname, "../node_modules/.cache/tau-mcp-servers"),
	);
	const bin = join(dir, "node_modules", ".bin");
	const complete = () => Object.values(MCP_TEST_SERVERS).every((name) => existsSync(join(bin, name)));
	if (complete()) return { bin };
	try {
		execFileSync(
			"npm",
			[
				"install",
				"--prefix",
				dir,
				"--ignore-scripts",
				"--no-audit",
				"--no-fund",
				"--loglevel=error",
				...Object.keys(MCP_TEST_SERVERS).map((name) => `${name}@${VERSION}`),
			],
			{ stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 },
		);
	} catch (error) {
		return { skipped: `could not install the MCP test servers: ${String(error.message).split("\n")[0]}` };
	}
	return complete() ? { bin } : { skipped: "the installed MCP test servers are incomplete" };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
	const servers = ensureMcpTestServers();
	if ("skipped" in servers) console.log(`skipped: ${servers.skipped}`);
	else console.log(`TAU_MCP_SERVERS=${servers.bin}`);
}
