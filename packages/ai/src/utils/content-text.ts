import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "../types/content.js";

type AnyBlock = TextContent | ImageContent | ThinkingContent | ToolCall;

/** A string content as is, or the text blocks of a block list joined with `separator`. */
export function contentText(content: string | readonly AnyBlock[] | null | undefined, separator = "\n"): string {
	if (typeof content === "string") return content;
	if (!content) return "";
	const parts: string[] = [];
	for (const block of content) if (block.type === "text") parts.push(block.text);
	return parts.join(separator);
}
