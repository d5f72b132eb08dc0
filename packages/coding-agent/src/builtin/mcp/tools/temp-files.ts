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
	let ext = extname(uri);
	if (URL.canParse(uri)) {
		const url = new URL(uri);
		// Custom schemes such as `mem://report.pdf` parse the name as the host; web hosts are not file names.
		const webHost = url.protocol === "http:" || url.protocol === "https:";
		ext = extname(url.pathname) || (webHost ? "" : extname(url.host));
	}
	return `resource${/^\.[A-Za-z0-9]{1,10}$/.test(ext) ? ext : ".bin"}`;
}
