/** Package name => executable of the real MCP servers the tests use; see mcp-test-servers.mjs. */
export const MCP_TEST_SERVERS: Record<string, string>;
/** Installs (once) and locates the real MCP test servers; `bin` holds their executables. */
export function ensureMcpTestServers(): { bin: string } | { skipped: string };
