import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Debug logs switched on by TAU_TUI_DEBUG (per-frame dumps) and TAU_TUI_DEBUG_REDRAW (redraw reasons). */
export class RenderDebugLog {
	constructor(private readonly logDirectory: string | undefined) {}

	/** Appends why a full redraw happened to `<logDirectory or tmpdir>/tau-tui-debug.log`. */
	redraw(reason: string): void {
		if (process.env.TAU_TUI_DEBUG_REDRAW !== "1") return;
		try {
			const file = path.join(this.logDirectory ?? os.tmpdir(), "tau-tui-debug.log");
			fs.appendFileSync(file, `${new Date().toISOString()} full redraw: ${reason}\n`);
		} catch {
			// A debugging aid must never break rendering.
		}
	}

	/** Writes one frame's bookkeeping and lines to `/tmp/tui/render-<timestamp>-<random>.log`. */
	frame(info: Record<string, number>, previousLength: number, lines: readonly string[]): void {
		if (process.env.TAU_TUI_DEBUG !== "1") return;
		try {
			const dir = path.join("/tmp", "tui");
			fs.mkdirSync(dir, { recursive: true });
			const name = `render-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`;
			const header = Object.entries(info)
				.map(([k, v]) => `${k}: ${v}`)
				.join("\n");
			const body = lines.map((l, i) => `[${i}] ${JSON.stringify(l)}`).join("\n");
			fs.writeFileSync(path.join(dir, name), `${header}\npreviousLines: ${previousLength}\n\n${body}\n`);
		} catch {
			// A debugging aid must never break rendering.
		}
	}
}
