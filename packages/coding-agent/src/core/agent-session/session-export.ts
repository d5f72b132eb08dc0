import { basename, resolve } from "node:path";
import { APP_NAME } from "../../config/app-identity.js";
import { writeFileAtomic, writeFileAtomicSync } from "../fs/atomic-write.js";
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

/** A self-contained HTML page of the session; returns the written path. */
export async function exportSessionHtml(sessionManager: SessionManager, cwd: string, path?: string): Promise<string> {
	// The renderer is only needed when exporting.
	const { renderSessionHtml } = await import("../../export/html-export.js");
	const destination = exportPath(sessionManager, cwd, ".html", path);
	await writeFileAtomic(destination, renderSessionHtml(fileEntries(sessionManager)));
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
