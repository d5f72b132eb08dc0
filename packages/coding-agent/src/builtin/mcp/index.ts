export { createMcpExtension, type McpExtensionOptions } from "./mcp-extension.js";
