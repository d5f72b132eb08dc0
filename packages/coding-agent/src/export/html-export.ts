import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { APP_NAME, VERSION } from "../config/app-identity.js";
import { writeFileAtomicSync } from "../core/fs/atomic-write.js";
import { type FileEntry, isSessionHeader, migrateSessionEntries, parseSessionEntries } from "../core/session/index.js";
import type { ViewerPayload, ViewerTheme, ViewerToolRender } from "./viewer-payload.js";
import { fillViewerTemplate } from "./viewer-template.js";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

/** What an export adds to the session file: the theme, extension tool renders and the current position. */
export interface RenderSessionHtmlOptions {
	/** The exporting theme's colours; without one the page follows the reader's light/dark preference. */
	theme?: ViewerTheme;
	/** Extension-rendered tool calls by tool call id (`renderToolsForExport`). */
	toolRenders?: Record<string, ViewerToolRender>;
	/** The entry to open at; defaults to the last entry of the file. */
	leafId?: string | null;
}

const TITLE_CHARS = 80;

/** The session's name (its newest `session_info`), else its first user prompt, else its id. */
function sessionTitle(entries: readonly FileEntry[]): string {
	let name: string | undefined;
	let firstPrompt: string | undefined;
	for (const entry of entries) {
		if (entry.type === "session_info") name = entry.name?.trim() || undefined;
		if (firstPrompt === undefined && entry.type === "message" && entry.message.role === "user") {
			const content = entry.message.content;
			const text = typeof content === "string" ? content : content.find((block) => block.type === "text")?.text;
			firstPrompt = text?.replace(/\s+/g, " ").trim() || undefined;
		}
	}
	const header = entries.find(isSessionHeader);
	const title = name ?? firstPrompt ?? header?.id ?? "session";
	const short = title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1)}…` : title;
	return `${short} · ${APP_NAME}`;
}

function lastEntryId(entries: readonly FileEntry[]): string | null {
	for (let index = entries.length - 1; index >= 0; index--) {
		const entry = entries[index]!;
		if (!isSessionHeader(entry)) return entry.id;
	}
	return null;
}

/**
 * A self-contained interactive page of a session file (docs/export.md): the viewer's script and
 * styles inline under a strict Content-Security-Policy, the entries embedded as inert JSON.
 */
export function renderSessionHtml(entries: readonly FileEntry[], options: RenderSessionHtmlOptions = {}): string {
	const payload: ViewerPayload = {
		format: 1,
		app: { name: APP_NAME, version: VERSION },
		exportedAt: new Date().toISOString(),
		entries: entries as unknown[],
		leafId: options.leafId === undefined ? lastEntryId(entries) : options.leafId,
		...(options.theme ? { theme: options.theme } : {}),
		...(options.toolRenders && Object.keys(options.toolRenders).length > 0
			? { toolRenders: options.toolRenders }
			: {}),
	};
	return fillViewerTemplate(escapeHtml(sessionTitle(entries)), JSON.stringify(payload));
}

/** `--export <input> [output]` (docs/export.md); returns the written path. */
export function exportSessionToHtml(input: string, output?: string): string {
	const source = resolve(input);
	if (!existsSync(source)) throw new Error(`File not found: ${source}`);
	const entries = parseSessionEntries(readFileSync(source, "utf8"));
	if (!entries.some(isSessionHeader)) throw new Error(`Not a session file: ${source}`);
	// Version 1 and 2 files get ids and current roles in memory, as when a session is opened.
	migrateSessionEntries(entries);
	const destination = output ?? `${basename(source).replace(/\.jsonl$/i, "")}.html`;
	writeFileAtomicSync(resolve(destination), renderSessionHtml(entries));
	return destination;
}
