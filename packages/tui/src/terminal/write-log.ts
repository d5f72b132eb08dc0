import fs from "node:fs";
import path from "node:path";

function timestamp(d: Date): string {
	const p = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Where `TAU_TUI_WRITE_LOG` sends terminal output: a file, or a per-process file in a directory. */
export function resolveWriteLogPath(value: string | undefined, now = new Date()): string | undefined {
	if (!value) return undefined;
	try {
		if (fs.statSync(value).isDirectory()) return path.join(value, `tui-${timestamp(now)}-${process.pid}.log`);
	} catch {
		// Not an existing directory: the value is the file path.
	}
	return value;
}

export function appendWriteLog(file: string | undefined, data: string): void {
	if (!file) return;
	try {
		fs.appendFileSync(file, data);
	} catch {
		// Logging is a debugging aid; it must never break rendering.
	}
}
