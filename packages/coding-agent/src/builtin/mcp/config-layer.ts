/**
 * What reading mcp.json and describing the servers to the model needs, without the MCP client:
 * loaded once a file or registration may name a server, before the client (runtime.ts) is.
 */
export { loadMcpConfig } from "./config/load-config.js";
export { renderServersSection, serverSectionInputs } from "./prompt/servers-section.js";
