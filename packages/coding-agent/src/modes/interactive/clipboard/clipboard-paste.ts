import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClipboardContent, ClipboardReader } from "@tau/tui";
import type { PromptEditor } from "../components/custom-editor.js";

/** The editor around the cursor, which decides separators and quoting. */
export interface PasteContext {
	/** Editor text starts (after leading whitespace) with `!`. */
	bashMode: boolean;
	/** Character just before the cursor, "" at the start of the text. */
	before: string;
	/** Character just after the cursor, "" at the end of the text. */
	after: string;
}

/** What `app.clipboard.pasteImage` inserts: literal paths, or text pasted as the user would. */
export type PasteInsertion = { kind: "paths"; text: string } | { kind: "text"; text: string } | { kind: "none" };

const IMAGE_EXTENSIONS: Record<string, string> = {
	"image/png": "png",
	"image/jpeg": "jpg",
	"image/jpg": "jpg",
	"image/gif": "gif",
	"image/webp": "webp",
	"image/bmp": "bmp",
	"image/tiff": "tiff",
};

function shellQuote(path: string): string {
	return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/** Pads inserted paths with a space wherever they would touch a non-whitespace character. */
function padded(text: string, context: PasteContext): string {
	const touches = (char: string) => char !== "" && !/\s/.test(char);
	return `${touches(context.before) ? " " : ""}${text}${touches(context.after) ? " " : ""}`;
}

/**
 * Files become their paths (one per line; space-separated and shell-quoted in bash mode); an image
 * is written to `<tmpdir>/tau-clipboard-<uuid>.<ext>` and its path inserted; otherwise the text.
 */
export function clipboardInsertion(
	content: ClipboardContent,
	context: PasteContext,
	directory: string = tmpdir(),
): PasteInsertion {
	if (content.files && content.files.length > 0) {
		const text = context.bashMode ? content.files.map(shellQuote).join(" ") : content.files.join("\n");
		return { kind: "paths", text: padded(text, context) };
	}
	if (content.image && content.image.data.length > 0) {
		const extension = IMAGE_EXTENSIONS[content.image.mimeType.toLowerCase()] ?? "png";
		const path = join(directory, `tau-clipboard-${randomUUID()}.${extension}`);
		writeFileSync(path, content.image.data);
		return { kind: "paths", text: padded(context.bashMode ? shellQuote(path) : path, context) };
	}
	return content.text ? { kind: "text", text: content.text } : { kind: "none" };
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** The characters around the cursor of an editor that reports it (else: the end of its text). */
function contextOf(editor: PromptEditor): PasteContext {
	const text = editor.getText();
	const bashMode = text.trimStart().startsWith("!");
	const lines = editor.getLines?.();
	const cursor = editor.getCursor?.();
	if (!lines || !cursor) return { bashMode, before: text.slice(-1), after: "" };
	const line = lines[cursor.line] ?? "";
	const before = cursor.col > 0 ? line[cursor.col - 1]! : cursor.line > 0 ? "\n" : "";
	const after = cursor.col < line.length ? line[cursor.col]! : cursor.line < lines.length - 1 ? "\n" : "";
	return { bashMode, before, after };
}

/**
 * `app.clipboard.pasteImage`: reads the clipboard and inserts at the cursor. Text goes in as a
 * bracketed paste, so long text collapses into a paste marker like a terminal paste would.
 */
export async function pasteFromClipboard(editor: PromptEditor, read: ClipboardReader): Promise<void> {
	const insertion = clipboardInsertion(await read(), contextOf(editor));
	if (insertion.kind === "none") return;
	if (insertion.kind === "paths" && editor.insertTextAtCursor) editor.insertTextAtCursor(insertion.text);
	else editor.handleInput(`${PASTE_START}${insertion.text}${PASTE_END}`);
}
