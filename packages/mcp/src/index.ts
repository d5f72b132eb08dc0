export {
	McpClient,
	type McpClientOptions,
	type McpConnectionState,
	type McpProgress,
	type McpRequestOptions,
} from "./client/mcp-client.js";
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
} from "./config/server-config.js";
export { type LimitedMcpContent, limitMcpContent, MCP_OUTPUT_MAX_BYTES } from "./content/limit-content.js";
export { toLlmContent } from "./content/llm-content.js";
export {
	JSON_RPC_ERROR_CODES,
	McpAbortError,
	McpAuthRequiredError,
	McpConnectionClosedError,
	McpError,
	McpHttpError,
	McpOAuthAuthorizationRequiredError,
	McpSessionExpiredError,
	McpTimeoutError,
} from "./errors.js";
export { createMcpToolName, mcpNamespace, mcpServerSummary, normalizeMcpInputSchema } from "./naming.js";
export {
	type AudioContent,
	type CallToolResult,
	type ContentBlock,
	type EmbeddedResource,
	type ImageContent,
	type Implementation,
	type InitializeResult,
	type JsonRpcMessage,
	type JsonRpcNotification,
	type JsonRpcRequest,
	type JsonRpcResponse,
	LATEST_PROTOCOL_VERSION,
	type LlmContent,
	type ReadResourceResult,
	type Resource,
	type ResourceContents,
	type ResourceLink,
	type ResourceTemplate,
	type Root,
	type ServerCapabilities,
	SUPPORTED_PROTOCOL_VERSIONS,
	type SupportedProtocolVersion,
	type TextContent,
	type Tool,
	type ToolAnnotations,
} from "./protocol.js";
export {
	type FetchLike,
	type McpAuthProvider,
	type McpUnauthorizedContext,
	type ReconnectOptions,
	StreamableHttpTransport,
	type StreamableHttpTransportOptions,
} from "./transport/http/streamable-http-transport.js";
export { type StdioExit, StdioTransport, type StdioTransportOptions } from "./transport/stdio/stdio-transport.js";
export { DEFAULT_MAX_MESSAGE_BYTES, type McpSendOptions, type McpTransport } from "./transport/transport.js";
