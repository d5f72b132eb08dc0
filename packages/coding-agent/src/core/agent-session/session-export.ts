import { basename, resolve } from "node:path";
import { APP_NAME } from "../../config/app-identity.js";
import type { AnyToolDefinition } from "../extensions/index.js";
import { writeFileAtomic, writeFileAtomicSync } from "../fs/atomic-write.js";
import type { ResourceLoader, Theme } from "../resources/index.js";
import { type FileEntry, type SessionManager, serializeEntry } from "../session/index.js";

/** The header (when the session has one) followed by every entry, in file order. */
function fileEntries(sessionManager: SessionManager): FileEntry[] {
	const header = sessionManager.getHeader();
	return header ? [header, ...sessionManager.getEntries()] : [...sessionManager.getEntries()];
}

/** `path` against the session cwd; by default named after the session file (or the id when in memory). */
function exportPath(sessionManager: SessionManager, cwd: string, extension: string, path: string | undefined): string {
	if (path !== undefined) return resolve(cwd, path);
	const file = sessionManager.getSessionFile();
	const stem = file ? basename(file).replace(/\.jsonl$/i, "") : `${APP_NAME}-session-${sessionManager.getSessionId()}`;
	return resolve(cwd, `${stem}${extension}`);
}

/** How `AgentSession.exportToHtml` shapes the page (docs/export.md). */
export interface HtmlExportOptions {
	/** The theme the page opens in (the interactive mode passes its own); without one it follows the reader. */
	theme?: Theme;
}

/** Where an export finds the session's extensions (their tool renderers), tool definitions and themes. */
export interface HtmlExportContext extends HtmlExportOptions {
	resourceLoader: ResourceLoader;
	getToolDefinition(name: string): AnyToolDefinition | undefined;
}

/** A theme with no colours, for renderers when no theme is loaded at all. */
const PLAIN_THEME: Theme = {
	name: "plain",
	colors: {},
	export: { pageBg: { kind: "default" }, cardBg: { kind: "default" }, infoBg: { kind: "default" } },
};

/** A self-contained, interactive HTML page of the session; returns the written path. */
export async function exportSessionHtml(
	sessionManager: SessionManager,
	cwd: string,
	path: string | undefined,
	context: HtmlExportContext,
): Promise<string> {
	// The exporter (and the TUI colour code it uses) is only needed when exporting.
	const [{ renderSessionHtml }, { renderToolsForExport }, { viewerThemeOf }, { loadedExtensions, toolRenderersFor }] =
		await Promise.all([
			import("../../export/html-export.js"),
			import("../../export/tool-renders.js"),
			import("../../export/export-theme.js"),
			import("../extensions/registry/renderers.js"),
		]);
	const destination = exportPath(sessionManager, cwd, ".html", path);
	const entries = fileEntries(sessionManager);
	const extensions = loadedExtensions(context.resourceLoader);
	const toolRenders = renderToolsForExport(entries, {
		renderersFor: (name) => toolRenderersFor(extensions, name, () => context.getToolDefinition(name)),
		theme: context.theme ?? context.resourceLoader.getThemes().themes[0] ?? PLAIN_THEME,
		cwd,
	});
	const html = renderSessionHtml(entries, {
		leafId: sessionManager.getLeafId(),
		toolRenders,
		...(context.theme ? { theme: viewerThemeOf(context.theme) } : {}),
	});
	await writeFileAtomic(destination, html);
	return destination;
}

/** A JSONL copy of the session file (header and every entry); returns the written path. */
export function exportSessionJsonl(sessionManager: SessionManager, cwd: string, path?: string): string {
	const destination = exportPath(sessionManager, cwd, ".jsonl", path);
	if (destination === sessionManager.getSessionFile()) {
		throw new Error(`Cannot export a session onto its own file: ${destination}`);
	}
	writeFileAtomicSync(destination, fileEntries(sessionManager).map(serializeEntry).join(""));
	return destination;
}
