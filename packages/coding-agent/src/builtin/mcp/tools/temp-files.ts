import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";

/** Writes MCP output to a fresh `tau-mcp-*` temp directory and returns the file path. */
export function saveMcpTempFile(name: string, data: string | Buffer): string {
	const dir = mkdtempSync(join(tmpdir(), "tau-mcp-"));
	const path = join(dir, name);
	writeFileSync(path, data);
	return path;
}

/** A file name for a blob: the URI's extension, else `.bin`. */
export function blobFileName(uri: string): string {
	let ext = "";
	try {
		ext = extname(new URL(uri).pathname);
	} catch {
		ext = extname(uri);
	}
	return `resource${/^\.[A-Za-z0-9]{1,10}$/.test(ext) ? ext : ".bin"}`;
}
