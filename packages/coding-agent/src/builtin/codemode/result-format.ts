import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageContent, TextContent } from "@tau/ai";
import type { CodemodeError, CodemodeOutputItem, CodemodeResult } from "@tau/codemode";
import { errorMessage } from "../../core/errors.js";
import type { CodemodeCallRow } from "./nested-tools.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
const CHARS_PER_TOKEN = 4;
const IMAGE_EXTENSIONS: Record<string, string> = {
	"image/png": ".png",
	"image/jpeg": ".jpg",
	"image/gif": ".gif",
	"image/webp": ".webp",
};

let outputDir: string | undefined;
const savedImages = new Map<string, string>();

/** A per-process temp directory for full outputs and images (created on first use). */
function tempDir(): string {
	outputDir ??= mkdtempSync(join(tmpdir(), "tau-codemode-"));
	return outputDir;
}

/** Saves identical image data once; returns the path. */
function saveImage(data: string, mimeType: string): string {
	const digest = createHash("sha256").update(data).digest("hex");
	const known = savedImages.get(digest);
	if (known) return known;
	const path = join(tempDir(), `image-${digest.slice(0, 16)}${IMAGE_EXTENSIONS[mimeType] ?? ".bin"}`);
	writeFileSync(path, Buffer.from(data, "base64"));
	savedImages.set(digest, path);
	return path;
}

function formatSize(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
		: `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

function errorDetail(error: CodemodeError): string {
	switch (error.kind) {
		case "script":
			return error.stack ?? (error.name ? `${error.name}: ${error.message}` : error.message);
		case "timeout":
			return `Script timed out: ${error.message}`;
		case "aborted":
			return `Script aborted: ${error.message}`;
		case "sandbox":
			return `Script sandbox failed: ${error.message}`;
	}
}

function callsSummary(rows: readonly CodemodeCallRow[]): string {
	if (rows.length === 0) return "The script failed before it made any tool calls; no tool calls were made.";
	const list = rows.map((row) => `${row.name} (${row.status})`).join(", ");
	return `Tool calls made before the failure (they are not undone): ${list}`;
}

function valueText(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value);
}

type Block = { kind: "text"; text: string } | { kind: "image"; data: string; mimeType: string };

/** Output items as text/image blocks: numbered text items, images labelled, console lines last. */
function layoutItems(items: readonly CodemodeOutputItem[], returned: string | undefined): Block[] {
	const texts =
		items.filter((item) => item.type === "text" && !item.console).length + (returned === undefined ? 0 : 1);
	const numbered = texts >= 2;
	const blocks: Block[] = [];
	const pending: string[] = [];
	const consoleLines: string[] = [];
	let n = 0;
	const addText = (text: string) => {
		n++;
		pending.push(numbered ? `==> text ${n}/${texts} <==\n${text}` : text);
	};
	const flush = () => {
		if (pending.length > 0) blocks.push({ kind: "text", text: pending.splice(0).join("\n") });
	};
	for (const item of items) {
		if (item.type === "text") {
			if (item.console) consoleLines.push(item.text);
			else addText(item.text);
			continue;
		}
		let label: string;
		try {
			const path = saveImage(item.data, item.mimeType);
			label = `[Image: ${path} (${item.mimeType}, ${formatSize(Math.floor((item.data.length * 3) / 4))})]`;
		} catch (error) {
			label = `[Image could not be saved: ${errorMessage(error)} (${item.mimeType})]`;
		}
		pending.push(label);
		flush();
		blocks.push({ kind: "image", data: item.data, mimeType: item.mimeType });
	}
	if (returned !== undefined) addText(returned);
	if (consoleLines.length > 0) pending.push(`<console_output>\n${consoleLines.join("\n")}\n</console_output>`);
	flush();
	return blocks;
}

/** Over budget: one text block with head, marker and tail, and the full text in a temp file. */
function truncate(text: string, budgetChars: number): { text: string; fullOutputPath?: string } {
	if (text.length <= budgetChars) return { text };
	const half = Math.floor(budgetChars / 2);
	const head = text.slice(0, half);
	const tail = text.slice(text.length - (budgetChars - half));
	const omittedTokens = Math.ceil((text.length - head.length - tail.length) / CHARS_PER_TOKEN);
	const lines = text.split("\n").length;
	let footer: string;
	let fullOutputPath: string | undefined;
	try {
		fullOutputPath = join(
			tempDir(),
			`output-${Date.now()}-${createHash("sha256").update(text).digest("hex").slice(0, 8)}.txt`,
		);
		writeFileSync(fullOutputPath, text);
		footer = `[Full output: ${fullOutputPath} (read with offset/limit)]`;
	} catch (error) {
		fullOutputPath = undefined;
		footer = `[Full output could not be saved: ${errorMessage(error)}]`;
	}
	const warning = `[Output truncated: about ${Math.ceil(text.length / CHARS_PER_TOKEN)} tokens in ${lines} lines exceeded the output budget]`;
	return {
		text: `${warning}\n\n${head}\n…${omittedTokens} tokens truncated…\n${tail}\n${footer}`,
		...(fullOutputPath ? { fullOutputPath } : {}),
	};
}

export interface FormattedResult {
	content: (TextContent | ImageContent)[];
	isError: boolean;
	fullOutputPath?: string;
}

/** The model-facing `codemode` result (B.8). */
export function formatCodemodeResult(
	result: CodemodeResult,
	rows: readonly CodemodeCallRow[],
	wallTimeMs: number,
	maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS,
): FormattedResult {
	const header = `${result.ok ? "Script completed" : "Script failed"}\nWall time ${(wallTimeMs / 1000).toFixed(1)} seconds\nOutput:\n`;
	const returned = result.ok && result.value !== undefined ? valueText(result.value) : undefined;
	const blocks = layoutItems(result.output, returned);
	if (!result.ok) {
		blocks.push({ kind: "text", text: `Script error:\n${errorDetail(result.error)}\n\n${callsSummary(rows)}` });
	}
	const allText = blocks.flatMap((b) => (b.kind === "text" ? [b.text] : [])).join("\n");
	const budget = maxOutputTokens * CHARS_PER_TOKEN;
	if (allText.length > budget) {
		const cut = truncate(allText, budget);
		const images = blocks.flatMap((b): ImageContent[] =>
			b.kind === "image" ? [{ type: "image", data: b.data, mimeType: b.mimeType }] : [],
		);
		return {
			content: [{ type: "text", text: header + cut.text }, ...images],
			isError: !result.ok,
			...(cut.fullOutputPath ? { fullOutputPath: cut.fullOutputPath } : {}),
		};
	}
	const content: (TextContent | ImageContent)[] = [];
	let first = true;
	for (const block of blocks) {
		if (block.kind === "text") {
			content.push({ type: "text", text: first ? header + block.text : block.text });
			first = false;
		} else {
			if (first) {
				content.push({ type: "text", text: header });
				first = false;
			}
			content.push({ type: "image", data: block.data, mimeType: block.mimeType });
		}
	}
	if (first) content.push({ type: "text", text: header });
	return { content, isError: !result.ok };
}
