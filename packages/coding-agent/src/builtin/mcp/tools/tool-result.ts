import type { ImageContent, TextContent } from "@tau/ai";
import { type CallToolResult, type ContentBlock, type LlmContent, limitMcpContent, toLlmContent } from "@tau/mcp";
import { blobFileName, saveMcpTempFile } from "./temp-files.js";
import { isTextMime } from "./text-mime.js";

export interface McpToolDetails {
	server: string;
	tool: string;
	fullOutputPath?: string;
}

function describeLink(
	block: Extract<ContentBlock, { type: "resource_link" }>,
	readable: boolean,
	server: string,
): string {
	const parts = [`[Resource link: ${block.title ?? block.name} <${block.uri}>`];
	const meta = [block.mimeType, block.size === undefined ? undefined : `${block.size} bytes`].filter(Boolean);
	if (meta.length > 0) parts.push(` (${meta.join(", ")})`);
	if (block.description) parts.push(` — ${block.description}`);
	if (readable) parts.push(`; read it with read_mcp_resource { "server": "${server}", "uri": "${block.uri}" }`);
	parts.push("]");
	return parts.join("");
}

/** Model-facing blocks of one MCP content block (D.7.1). */
function blockContent(block: ContentBlock, readable: boolean, server: string): LlmContent[] {
	if (block.type === "resource_link") return [{ type: "text", text: describeLink(block, readable, server) }];
	if (block.type === "resource" && "blob" in block.resource && !block.resource.mimeType?.startsWith("image/")) {
		const { uri, mimeType, blob } = block.resource;
		const bytes = Buffer.from(blob, "base64");
		if (isTextMime(mimeType)) return [{ type: "text", text: bytes.toString("utf8") }];
		const path = saveMcpTempFile(blobFileName(uri), bytes);
		return [
			{
				type: "text",
				text: `[Binary resource ${uri} (${mimeType ?? "unknown type"}, ${bytes.length} bytes) saved to ${path}]`,
			},
		];
	}
	return toLlmContent({ content: [block] });
}

export interface FormattedMcpResult {
	content: (TextContent | ImageContent)[];
	details: McpToolDetails;
	structuredContent: Record<string, unknown>;
	isError: boolean;
}

/** Turns a `tools/call` result into the model-facing result; scripts get the untruncated structured copy. */
export async function formatMcpToolResult(
	result: CallToolResult,
	server: string,
	tool: string,
	hasResources: boolean,
): Promise<FormattedMcpResult> {
	let content: LlmContent[] =
		result.content.length === 0
			? toLlmContent(result)
			: result.content.flatMap((block) => blockContent(block, hasResources, server));
	if (result.isError && !content.some((block) => block.type === "text")) {
		content = [{ type: "text", text: `MCP tool ${tool} on server ${server} returned an error.` }, ...content];
	}
	const limited = await limitMcpContent(content, async (text) => saveMcpTempFile("output.txt", text));
	const details: McpToolDetails = { server, tool };
	if (limited.fullOutputPath) details.fullOutputPath = limited.fullOutputPath;
	const { _meta, ...structured } = result;
	return {
		content: limited.content as (TextContent | ImageContent)[],
		details,
		structuredContent: structured as Record<string, unknown>,
		isError: result.isError === true,
	};
}

/** Output schema of every MCP tool (D.7.2): the whole `CallToolResult`. */
export function mcpOutputSchema(toolOutputSchema: Record<string, unknown> | undefined): Record<string, unknown> {
	return {
		type: "object",
		properties: {
			content: {
				type: "array",
				items: {
					type: "object",
					properties: {
						type: { type: "string", enum: ["text", "image", "audio", "resource_link", "resource"] },
						text: { type: "string" },
						data: { type: "string" },
						mimeType: { type: "string" },
					},
					required: ["type"],
				},
			},
			structuredContent: toolOutputSchema ? rebaseRefs(toolOutputSchema) : {},
			isError: { type: "boolean" },
		},
		required: ["content"],
		additionalProperties: true,
	};
}

/** Local `$ref`s of the tool's schema must resolve under `#/properties/structuredContent`. */
function rebaseRefs(schema: unknown): Record<string, unknown> {
	const visit = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(visit);
		if (typeof value !== "object" || value === null) return value;
		const out: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) {
			out[key] =
				key === "$ref" && typeof item === "string" && item.startsWith("#")
					? `#/properties/structuredContent${item.slice(1)}`
					: visit(item);
		}
		return out;
	};
	return visit(schema) as Record<string, unknown>;
}
