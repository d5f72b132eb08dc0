// `@tau/mcp/config`: server entries and tool naming without the client, for hosts that read
// mcp.json at startup and load the client only once a server is needed.

export { mcpNamespace, mcpServerSummary } from "../naming.js";
export {
	isMcpServerOverride,
	isSecureOrLoopbackUrl,
	type McpExposure,
	type McpHttpServerConfig,
	type McpOAuthConfig,
	type McpServerConfigResult,
	type McpStdioServerConfig,
	parseMcpExposure,
	type ValidateMcpServerConfigOptions,
	validateMcpServerConfig,
} from "./server-config.js";
