// Keystroke echo, CPU and output while an answer streams, in a real pty against the built CLI.
import { join, resolve } from "node:path";
import type { MockLlmServer } from "@tau/testkit";
import type { Box, Contender } from "../cli-harness.js";
import { END_MARKER, type StreamedAnswer } from "./answers.js";
import { PtyProcess } from "./pty-process.js";

export const COLUMNS = 100;
export const ROWS = 30;

export interface StreamingResult {
	/** Milliseconds from a keystroke to its character appearing in the output. */
	echoMs: number[];
	/** The program's CPU use while the answer streamed, in % of one core. */
	cpuPercent: number;
	/** Terminal output bytes per streamed piece (typed characters' echoes included). */
	bytesPerToken: number;
	/** How long after the last piece was sent the end of the answer reached the screen. */
	catchUpMs: number;
}

/** Text that every contender's footer shows once the interactive screen is up. */
export const READY_TEXT = "mock-model";

/** The n-th typed character: CJK ideographs never occur in the answers or the UI, so each echo is unique. */
/** The CLI's `--tui-mode` (tau and pi 1.6 take the same flag). */
export type TuiMode = "fullscreen" | "regular";

const typedChar = (n: number) => String.fromCodePoint(0x4e00 + n);

/**
 * TAU_TUI_BENCH_CPU_PROF=<dir> runs tau under `node --cpu-prof`, writing one profile per run into
 * `<dir>/<contender>/` (summarize with scripts/bench/cpu-profile-summary.mjs). pi is left unprofiled:
 * it does not exit on SIGTERM in mid-stream.
 */
export function profileArgs(contender: Contender): string[] {
	const dir = process.env.TAU_TUI_BENCH_CPU_PROF;
	if (!dir || !contender.label.startsWith("tau")) return [];
	return ["--cpu-prof", `--cpu-prof-dir=${join(resolve(dir), contender.label.replace(/[^\w.-]+/g, "-"))}`];
}

/**
 * Presses Enter until `sent` resolves: pi 1.6 now and then drops an Enter that arrives right after
 * the typed text, and the run would wait for its request forever.
 */
async function submit(pty: PtyProcess, sent: Promise<unknown>): Promise<void> {
	let done = false;
	void sent.then(() => (done = true));
	for (let attempt = 0; attempt < 10 && !done; attempt++) {
		pty.write("\r");
		await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 3_000))]);
	}
	await sent;
}

export async function streamWhileTyping(
	contender: Contender,
	box: Box,
	server: MockLlmServer,
	answer: StreamedAnswer,
	tokensPerSecond: number,
	mode: TuiMode,
): Promise<StreamingResult> {
	const pty = new PtyProcess({
		node: contender.node,
		args: [...profileArgs(contender), contender.cli, "--no-session", "--tui-mode", mode],
		cwd: box.project,
		env: box.env,
		columns: COLUMNS,
		rows: ROWS,
	});
	try {
		await pty.waitFor(READY_TEXT);
		const requestIndex = server.requests.length;
		server.enqueue({ text: answer.pieces, framesPerSecond: tokensPerSecond });
		pty.write("go");
		await pty.waitFor("go");
		await submit(pty, server.waitForRequest(requestIndex));
		const shownAt = pty.waitFor(END_MARKER, pty.output.length, 120_000);
		const cpuBefore = pty.cpuMs();
		const bytesBefore = pty.bytes;
		const startedAt = performance.now();
		let streaming = true;
		let endedAt = 0;
		const settled = server.waitForSettled(requestIndex).then(() => {
			streaming = false;
			endedAt = performance.now();
		});
		const echoMs: number[] = [];
		for (let n = 0; streaming; n++) {
			const char = typedChar(n);
			const from = pty.output.length;
			const sentAt = performance.now();
			pty.write(char);
			echoMs.push((await pty.waitFor(char, from)) - sentAt);
			// Irregular gaps so keystrokes do not lock to the renderer's frame phase.
			await new Promise((resolve) => setTimeout(resolve, 40 + ((n * 37) % 30)));
		}
		await settled;
		const cpuMs = pty.cpuMs() - cpuBefore;
		const bytes = pty.bytes - bytesBefore;
		const caughtUpAt = await shownAt;
		return {
			echoMs,
			cpuPercent: (cpuMs / (endedAt - startedAt)) * 100,
			bytesPerToken: bytes / answer.pieces.length,
			catchUpMs: Math.max(0, caughtUpAt - endedAt),
		};
	} finally {
		await (profileArgs(contender).length > 0 ? pty.terminate() : pty.kill());
	}
}
