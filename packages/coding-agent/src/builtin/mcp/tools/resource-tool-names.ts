/** The tools every server with resources shares (docs/mcp.md), known before the MCP client loads. */
export const RESOURCE_TOOL_NAMES = ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"] as const;
