export { type McpCliContext, runMcpCli } from "./cli/mcp-cli.js";
export { createMcpExtension, type McpExtensionOptions } from "./mcp-extension.js";
