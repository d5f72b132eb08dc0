import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Creates `<tmpdir>/<prefix>-<16 hex><ext>` exclusively (never following an existing path) with
 * mode 0600 and returns its path and descriptor. The file is kept for the user to inspect.
 */
export function createOutputFile(prefix: string, extension = ".log"): { path: string; fd: number } {
	const path = join(tmpdir(), `${prefix}-${randomBytes(8).toString("hex")}${extension}`);
	return { path, fd: openSync(path, "wx", 0o600) };
}
