// Time from spawn to the first frame that shows the end of a resumed session, in a real pty.
import { join } from "node:path";
import type { Box, Contender } from "../cli-harness.js";
import { writeLargeSession } from "../large-session.js";
import { PtyProcess } from "./pty-process.js";
import { COLUMNS, profileArgs, READY_TEXT, ROWS, type TuiMode } from "./streaming.js";

let runs = 0;

export interface FirstFrame {
	/** Milliseconds from spawning the CLI until both the session's last answer and the footer are on screen. */
	ms: number;
	/** CPU time (user + system) the program had used by then. */
	cpuMs: number;
	/**
	 * Until the footer also shows the session's token totals (`↑`): tau draws a long session's first
	 * frame before it has read every entry (docs/design/session-runtime.md#opening-a-long-session).
	 */
	withTotalsMs: number;
}

/** The first frame of the CLI (in `mode`) resuming a session of `entries` entries. */
export async function firstFrame(contender: Contender, box: Box, entries: number, mode: TuiMode): Promise<FirstFrame> {
	// A fresh file per run: a session another (killed) process opened stays locked for a while.
	const file = join(box.home, `history-${entries}-${++runs}.jsonl`);
	writeLargeSession(file, box.project, entries);
	// writeLargeSession's last entry is an assistant answer (entries is even) numbered entries - 1.
	const lastAnswer = `answer ${entries - 1} ipsum`;
	const spawnedAt = performance.now();
	const pty = new PtyProcess({
		node: contender.node,
		args: [...profileArgs(contender), contender.cli, "--session", file, "--tui-mode", mode],
		cwd: box.project,
		env: box.env,
		columns: COLUMNS,
		rows: ROWS,
	});
	try {
		const totals = pty.waitFor("↑", 0, 120_000);
		const shown = await Promise.all([pty.waitFor(lastAnswer, 0, 120_000), pty.waitFor(READY_TEXT, 0, 120_000)]);
		const cpuMs = pty.cpuMs();
		return { ms: Math.max(...shown) - spawnedAt, cpuMs, withTotalsMs: (await totals) - spawnedAt };
	} finally {
		// A profiled run must exit on its own terms for node to write the profile.
		await (profileArgs(contender).length > 0 ? pty.terminate() : pty.kill());
	}
}
