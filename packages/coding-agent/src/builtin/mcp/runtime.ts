/**
 * The parts of `builtin:mcp` that load the MCP client (`@tau/mcp`). The extension imports this
 * module only once some server could be configured, so plain runs never pay for it.
 */
export { deleteMcpCredentials, peekMcpTokens } from "./auth/credential-store.js";
export { signInMcpServer } from "./auth/sign-in.js";
export { loadMcpConfig } from "./config/load-config.js";
export { writeEntryChange } from "./config/update-entry.js";
export { createMcpTransport } from "./connection/create-transport.js";
export { McpSession } from "./mcp-session.js";
export { renderServersSection } from "./prompt/servers-section.js";
export { RESOURCE_TOOL_NAMES } from "./tools/resource-tools.js";
