import type { AgentToolResult } from "@tau/agent";
import type { ImageContent, TextContent } from "@tau/ai";
import type { Static, TNumber, TObject, TOptional, TSchema, TString } from "typebox";
import { jsonSchema } from "./json-schema.js";
import type { ReadOperations } from "./operations.js";
import { resolveReadPath } from "./path-resolution.js";
import { type ProcessedImage, processImage } from "./read/image-processing.js";
import { type ReadSelection, selectFromStream, selectFromText } from "./read/line-selection.js";
import { openLocalSource, openOperationsSource, type ReadSource } from "./read/read-source.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.js";
import { type BuiltinToolContext, type BuiltinToolDefinition, throwIfAborted, toAgentTool } from "./types.js";

export const readSchema = jsonSchema<TObject<{ path: TString; offset: TOptional<TNumber>; limit: TOptional<TNumber> }>>(
	{
		type: "object",
		required: ["path"],
		properties: {
			path: { type: "string", description: "Path to the file to read (relative or absolute)" },
			offset: { type: "number", description: "Line number to start reading from (1-indexed)" },
			limit: { type: "number", description: "Maximum number of lines to read" },
		},
	},
);
/** The arguments the model passes to the read tool: the path and an optional line offset and limit. */
export type ReadToolInput = Static<typeof readSchema>;

const readOutputSchema = jsonSchema<TSchema>({
	anyOf: [
		{ type: "string" },
		{
			type: "object",
			required: ["type", "data", "mimeType", "note"],
			properties: {
				type: { type: "string", const: "image" },
				data: { type: "string" },
				mimeType: { type: "string" },
				note: { type: "string" },
			},
		},
	],
});

/** The `details` of a read tool result: how the output was truncated, and why an image was not sent to the model. */
export interface ReadToolDetails {
	truncation?: TruncationResult;
	imageUnsupportedByModel?: string;
}

/** Resize limits (a model's `inputLimits.images.resize`); JPEG quality is unused (PNG output). */
export interface ModelImageResizeOptions {
	maxWidth?: number;
	maxHeight?: number;
	maxBytes?: number;
	jpegQuality?: number;
}

/** Options of the read tool: whether and how images are resized for the model, and the file operations it uses. */
export interface ReadToolOptions {
	autoResizeImages?: boolean;
	resizeOptions?: ModelImageResizeOptions;
	operations?: ReadOperations;
}

const DESCRIPTION = `Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp); images are sent as attachments. Text output is limited to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB, whichever comes first. Use offset/limit to continue reading large files until complete.`;

const isWholeNumber = (value: number | undefined): boolean => value === undefined || Number.isInteger(value);

async function readImage(
	source: ReadSource,
	mimeType: string,
	options: ReadToolOptions,
	ctx: BuiltinToolContext | undefined,
): Promise<AgentToolResult<ReadToolDetails>> {
	const details: ReadToolDetails = {};
	if (ctx?.model?.input && !ctx.model.input.includes("image")) details.imageUnsupportedByModel = ctx.model.id;
	const note = `Read image file [${mimeType}]`;
	let processed: ProcessedImage;
	try {
		const limits = ctx?.model?.inputLimits?.images?.resize ?? options.resizeOptions;
		processed = processImage(await source.readAll(), mimeType, options.autoResizeImages ?? true, limits);
	} catch (error) {
		const text = `${note}\nImage could not be processed: ${(error as Error).message}`;
		return { content: [{ type: "text", text }], details };
	}
	const text = [note, ...processed.hints].join("\n");
	const image: ImageContent = {
		type: "image",
		data: processed.data.toString("base64"),
		mimeType: processed.mimeType,
	};
	return {
		content: [{ type: "text", text }, image],
		details,
		structuredContent: { type: "image", data: image.data, mimeType: image.mimeType, note: text },
	};
}

/** Appends the notice that tells the model what was shown and how to continue (docs/design/tools.md#read). */
function formatText(
	selection: ReadSelection,
	startLine: number,
	offset: number | undefined,
	limit: number | undefined,
	displayPath: string,
): { text: string; truncation?: TruncationResult } {
	const { truncation, totalFileLines } = selection;
	if (startLine >= totalFileLines) {
		throw new Error(`Offset ${offset} is beyond end of file (${totalFileLines} lines total)`);
	}
	const first = startLine + 1;
	if (truncation.firstLineExceedsLimit) {
		const lineSize = formatSize(selection.firstLineBytes);
		const text = `[Line ${first} is ${lineSize}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${displayPath} | head -c ${DEFAULT_MAX_BYTES}]`;
		return { text, truncation };
	}
	if (truncation.truncated) {
		const end = startLine + truncation.outputLines;
		const limitNote = truncation.truncatedBy === "bytes" ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : "";
		const text = `${truncation.content}\n\n[Showing lines ${first}-${end} of ${totalFileLines}${limitNote}. Use offset=${end + 1} to continue.]`;
		return { text, truncation };
	}
	if (limit !== undefined && startLine + limit < totalFileLines) {
		const next = startLine + limit + 1;
		const remaining = totalFileLines - (startLine + limit);
		return { text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${next} to continue.]` };
	}
	return { text: truncation.content };
}

/** Streams when the backend can and offset/limit are whole numbers, else reads the whole file. */
async function selectText(
	source: ReadSource,
	startLine: number,
	{ offset, limit }: ReadToolInput,
	signal: AbortSignal | undefined,
): Promise<ReadSelection> {
	const streamable = isWholeNumber(offset) && isWholeNumber(limit) && (limit ?? 0) >= 0;
	const chunks = streamable ? source.chunks(signal) : undefined;
	if (chunks) {
		return selectFromStream(chunks, startLine, limit, signal).catch((error: unknown) => {
			throwIfAborted(signal);
			throw error;
		});
	}
	const bytes = await source.readAll();
	throwIfAborted(signal);
	return selectFromText(bytes.toString("utf8"), startLine, limit);
}

/**
 * Creates the definition of the built-in read tool (text files by line range, and images) for the given working
 * directory.
 */
export function createReadToolDefinition(
	cwd: string,
	options: ReadToolOptions = {},
): BuiltinToolDefinition<typeof readSchema, ReadToolDetails | undefined> {
	const { operations } = options;
	return {
		name: "read",
		label: "read",
		description: DESCRIPTION,
		parameters: readSchema,
		outputSchema: readOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		promptSnippet: "Read file contents",
		promptGuidelines: ["Use read to examine files instead of cat or sed."],
		executionMode: "parallel",
		async execute(_id, params, signal, _onUpdate, ctx) {
			throwIfAborted(signal);
			const path = resolveReadPath(params.path, ctx?.cwd || cwd);
			const source = operations
				? await openOperationsSource(operations, path, signal)
				: await openLocalSource(path, signal);
			const { offset, limit } = params;
			const startLine = offset ? Math.max(0, offset - 1) : 0;
			let selection: ReadSelection;
			try {
				if (source.mimeType) return await readImage(source, source.mimeType, options, ctx);
				selection = await selectText(source, startLine, params, signal);
			} finally {
				await source.close();
			}
			const { text, truncation } = formatText(selection, startLine, offset, limit, params.path);
			const content: TextContent[] = [{ type: "text", text }];
			return { content, details: truncation ? { truncation } : undefined, structuredContent: text };
		},
	};
}

/** Creates the built-in read tool as an agent tool for the given working directory. */
export function createReadTool(cwd: string, options?: ReadToolOptions) {
	return toAgentTool(createReadToolDefinition(cwd, options));
}
