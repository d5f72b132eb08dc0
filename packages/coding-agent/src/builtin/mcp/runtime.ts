/**
 * The parts of `builtin:mcp` that load the MCP client (`@tau/mcp`). The extension imports this
 * module only once some server could be configured, so plain runs never pay for it.
 */
export { deleteMcpCredentials, peekMcpTokens } from "./auth/credential-store.js";
export { writeEntryChange } from "./config/update-entry.js";
export { createMcpTransport } from "./connection/create-transport.js";
export { McpSession } from "./mcp-session.js";
