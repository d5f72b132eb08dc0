import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function shellQuote(value: string): string {
	return process.platform === "win32" ? `"${value}"` : `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs the user's editor (`app.editor.external`) on a temp file holding `text` and returns the
 * edited text, or undefined when the editor failed. The caller stops the UI around this call: the
 * editor owns the terminal meanwhile.
 */
export function editInExternalEditor(command: string, text: string): { text?: string; error?: string } {
	const file = join(tmpdir(), `tau-editor-${randomUUID()}.md`);
	writeFileSync(file, text);
	try {
		const result = spawnSync(`${command} ${shellQuote(file)}`, { shell: true, stdio: "inherit" });
		if (result.error) return { error: result.error.message };
		if (result.status !== 0) return { error: `${command} exited with code ${result.status ?? result.signal}` };
		return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
	} finally {
		rmSync(file, { force: true });
	}
}
