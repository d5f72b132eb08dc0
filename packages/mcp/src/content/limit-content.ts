import type { LlmContent } from "../protocol.js";

/** Text beyond this many UTF-8 bytes is middle-truncated before it reaches a model. */
export const MCP_OUTPUT_MAX_BYTES = 20480;

/** Tool content cut to the output limit, with the path of the file holding the full output when it was cut. */
export interface LimitedMcpContent {
	content: LlmContent[];
	fullOutputPath?: string;
}

/** Cuts `bytes` of UTF-8 from the start (or end) of `text` without splitting a character. */
function utf8Head(text: string, bytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	let end = Math.min(bytes, buffer.length);
	while (end > 0 && end < buffer.length && (buffer[end]! & 0xc0) === 0x80) end--;
	return buffer.subarray(0, end).toString("utf8");
}
function utf8Tail(text: string, bytes: number): string {
	const buffer = Buffer.from(text, "utf8");
	let start = Math.max(0, buffer.length - bytes);
	while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
	return buffer.subarray(start).toString("utf8");
}
function codePoints(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}

/**
 * Joins text blocks and, past `MCP_OUTPUT_MAX_BYTES`, keeps head and tail with a marker; `save`
 * stores the full text so the model can read it from a file. Images follow the text.
 */
export async function limitMcpContent(
	content: readonly LlmContent[],
	save?: (fullText: string) => Promise<string>,
): Promise<LimitedMcpContent> {
	const texts = content.filter((block) => block.type === "text").map((block) => block.text);
	const images = content.filter((block) => block.type === "image");
	const text = texts.join("\n");
	const bytes = Buffer.byteLength(text, "utf8");
	if (bytes <= MCP_OUTPUT_MAX_BYTES) return { content: [...content] };
	const half = Math.floor(MCP_OUTPUT_MAX_BYTES / 2);
	// The warning and marker take room too, so the kept slices are a little under half each.
	const slice = half - 512;
	const head = utf8Head(text, slice);
	const tail = utf8Tail(text, slice);
	const omitted = codePoints(text) - codePoints(head) - codePoints(tail);
	const lines = text.split("\n").length;
	let fullOutputPath: string | undefined;
	let saved: string;
	if (save) {
		try {
			fullOutputPath = await save(text);
			saved = `Full output saved to ${fullOutputPath}`;
		} catch (error) {
			saved = `Full output could not be saved: ${(error as Error).message}`;
		}
	} else saved = "Full output was not saved.";
	const warning = `[Output truncated: ${bytes} bytes (~${Math.ceil(bytes / 4)} tokens), ${lines} lines; the middle is omitted]`;
	const limited = `${warning}\n\n${head}…${omitted} chars truncated…${tail}\n${saved}`;
	const result: LimitedMcpContent = { content: [{ type: "text", text: limited }, ...images] };
	if (fullOutputPath !== undefined) result.fullOutputPath = fullOutputPath;
	return result;
}
