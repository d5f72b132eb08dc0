import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { APP_NAME } from "../config/app-identity.js";
import { writeFileAtomicSync } from "../core/fs/atomic-write.js";
import { type FileEntry, isSessionHeader, parseSessionEntries } from "../core/session/index.js";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;background:#fafafa;color:#222}
.entry{border-radius:6px;padding:.6rem .9rem;margin:.6rem 0;background:#fff;border:1px solid #ddd}
.role{font-size:.75rem;text-transform:uppercase;color:#666;margin-bottom:.3rem}
.user{border-left:4px solid #3b82f6}.assistant{border-left:4px solid #10b981}.toolResult{border-left:4px solid #a855f7}
.error{border-left:4px solid #ef4444}.meta{color:#666;font-size:.85rem}
pre{white-space:pre-wrap;word-break:break-word;margin:.2rem 0;font-family:ui-monospace,monospace;font-size:.85rem}`;

type Block = { type: string; text?: string; thinking?: string; name?: string; arguments?: unknown; mimeType?: string };

function renderBlocks(content: unknown): string {
	if (typeof content === "string") return `<pre>${escapeHtml(content)}</pre>`;
	if (!Array.isArray(content)) return "";
	return (content as Block[])
		.map((block) => {
			switch (block.type) {
				case "text":
					return `<pre>${escapeHtml(block.text ?? "")}</pre>`;
				case "thinking":
					return `<pre class="meta">${escapeHtml(block.thinking ?? "")}</pre>`;
				case "toolCall":
					return `<pre class="meta">→ ${escapeHtml(block.name ?? "")} ${escapeHtml(JSON.stringify(block.arguments ?? {}))}</pre>`;
				case "image":
					return `<p class="meta">[image ${escapeHtml(block.mimeType ?? "")}]</p>`;
				default:
					return "";
			}
		})
		.join("");
}

function renderEntry(entry: FileEntry): string {
	if (isSessionHeader(entry) || entry.type !== "message") return "";
	const message = entry.message as {
		role: string;
		content?: unknown;
		stopReason?: string;
		errorMessage?: string;
		toolName?: string;
	};
	const failed = message.stopReason === "error" || message.stopReason === "aborted";
	const label = message.role === "toolResult" ? `tool result: ${message.toolName ?? ""}` : message.role;
	const error = failed ? `<p class="meta">${escapeHtml(message.errorMessage ?? message.stopReason ?? "")}</p>` : "";
	return `<div class="entry ${escapeHtml(message.role)}${failed ? " error" : ""}"><div class="role">${escapeHtml(label)}</div>${renderBlocks(message.content)}${error}</div>`;
}

/** A self-contained HTML page of a session file: inline style, no scripts, no external resources, all content escaped. */
export function renderSessionHtml(entries: readonly FileEntry[]): string {
	const header = entries.find(isSessionHeader);
	const title = `${APP_NAME} session ${header?.id ?? ""}`.trim();
	const meta = header ? `<p class="meta">${escapeHtml(header.cwd)} · ${escapeHtml(header.timestamp)}</p>` : "";
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>${meta}
${entries
	.map(renderEntry)
	.filter((html) => html !== "")
	.join("\n")}
</body></html>
`;
}

/** `--export <input> [output]` (cli-modes.md §2.6); returns the written path. */
export function exportSessionToHtml(input: string, output?: string): string {
	const source = resolve(input);
	if (!existsSync(source)) throw new Error(`File not found: ${source}`);
	const entries = parseSessionEntries(readFileSync(source, "utf8"));
	if (!entries.some(isSessionHeader)) throw new Error(`Not a session file: ${source}`);
	const destination = output ?? `${basename(source).replace(/\.jsonl$/i, "")}.html`;
	writeFileAtomicSync(resolve(destination), renderSessionHtml(entries));
	return destination;
}
