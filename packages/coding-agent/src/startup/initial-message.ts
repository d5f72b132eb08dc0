import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { ImageContent } from "@tau/ai";
import { expandTilde } from "../config/index.js";
import { errorMessage } from "../core/errors.js";
import { StartupError } from "./diagnostics.js";

export interface InitialInput {
	/** The first prompt, when there is anything to send. */
	initialMessage?: string;
	initialImages: ImageContent[];
	/** The messages after the first, each sent as its own prompt. */
	messages: string[];
}

/** Reads piped stdin to EOF (docs/design/cli.md#piped-stdin); trimmed, undefined when empty or a terminal. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
	if (stdin.isTTY) return undefined;
	const chunks: Buffer[] = [];
	for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
	const text = Buffer.concat(chunks).toString("utf8").trim();
	return text === "" ? undefined : text;
}

const IMAGE_SIGNATURES: ReadonlyArray<{ mimeType: string; matches: (bytes: Buffer) => boolean }> = [
	{
		mimeType: "image/png",
		matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	},
	{ mimeType: "image/jpeg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
	{ mimeType: "image/gif", matches: (b) => b.subarray(0, 6).toString("latin1").startsWith("GIF8") },
	{
		mimeType: "image/webp",
		matches: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP",
	},
];

/** The image type by content, not by name. */
export function detectImageType(bytes: Buffer): string | undefined {
	return IMAGE_SIGNATURES.find((signature) => signature.matches(bytes))?.mimeType;
}

/** Turns `@file` arguments into prompt text and image attachments (docs/design/cli.md#initial-message). */
export function readFileArguments(fileArgs: readonly string[], cwd: string): { text: string; images: ImageContent[] } {
	let text = "";
	const images: ImageContent[] = [];
	for (const arg of fileArgs) {
		const path = resolve(cwd, expandTilde(arg));
		if (!existsSync(path)) throw new StartupError(`File not found: ${path}`);
		let bytes: Buffer;
		try {
			if (statSync(path).size === 0) continue;
			bytes = readFileSync(path);
		} catch (error) {
			throw new StartupError(`Could not read file ${path}: ${errorMessage(error)}`);
		}
		const mimeType = detectImageType(bytes);
		if (mimeType) {
			images.push({ type: "image", mimeType, data: bytes.toString("base64") });
			text += `<file name="${path}"></file>\n`;
			continue;
		}
		const content = bytes.toString("utf8").replace(/^\uFEFF/, "");
		text += `<file name="${path}">\n${content}\n</file>\n`;
	}
	return { text, images };
}

/**
 * The first prompt is stdin, then the `@file` text, then the first message; stdin is separated from
 * what follows by a blank line (tau's fix of pi's bare concatenation), file text ends in "\n" already.
 */
export function buildInitialInput(options: {
	stdin?: string;
	fileText: string;
	images: ImageContent[];
	messages: readonly string[];
}): InitialInput {
	const [first, ...rest] = options.messages;
	const tail = options.fileText + (first ?? "");
	let initialMessage: string | undefined;
	if (options.stdin !== undefined) initialMessage = tail === "" ? options.stdin : `${options.stdin}\n\n${tail}`;
	else if (tail !== "" || first !== undefined) initialMessage = tail;
	const input: InitialInput = { initialImages: options.images, messages: rest };
	if (initialMessage !== undefined) input.initialMessage = initialMessage;
	return input;
}
