import type { CallToolResult, ContentBlock, LlmContent } from "../protocol.js";

function blockToLlm(block: ContentBlock): LlmContent {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
		case "audio":
			return { type: "text", text: `[audio omitted (${block.mimeType})]` };
		case "resource_link":
			return { type: "text", text: `${block.name}: ${block.uri}` };
		case "resource": {
			const resource = block.resource;
			if ("text" in resource) return { type: "text", text: resource.text };
			if (resource.mimeType?.startsWith("image/"))
				return { type: "image", data: resource.blob, mimeType: resource.mimeType };
			return {
				type: "text",
				text: `[binary resource ${resource.uri} (${resource.mimeType ?? "unknown type"}) omitted]`,
			};
		}
		default: {
			const unknown = block as { type?: unknown };
			return { type: "text", text: `[unsupported MCP content type ${String(unknown.type)} omitted]` };
		}
	}
}

/** Converts an MCP tool result into text and image blocks a model can read. */
export function toLlmContent(result: CallToolResult): LlmContent[] {
	if (result.content.length === 0 && result.structuredContent !== undefined) {
		return [{ type: "text", text: JSON.stringify(result.structuredContent, null, 2) }];
	}
	return result.content.map(blockToLlm);
}
