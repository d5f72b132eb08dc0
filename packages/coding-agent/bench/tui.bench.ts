// The interactive UI in a real pseudo-terminal against the built CLI, tau beside pi 1.6 in the same
// run (same mock server, same scripted answers): keystroke echo and CPU while answers stream, output
// per streamed token, and the first frame of long sessions. Needs Linux and util-linux `script`.
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { MockLlmServer } from "@tau/testkit";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { type Box, type Contender, makeBox, withServer } from "./cli-harness.js";
import { referenceContenders } from "./reference-pi.js";
import { codeBlockAnswer, paragraphAnswer, type StreamedAnswer } from "./tui/answers.js";
import { firstFrameMs } from "./tui/history.js";
import { ptyUnavailable } from "./tui/pty-process.js";
import { streamWhileTyping, type TuiMode } from "./tui/streaming.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");
const RATES = [50, 500];
/** A fast stream ends within seconds: it is repeated for enough keystrokes. */
const roundsAt = (tokensPerSecond: number) => (tokensPerSecond >= 500 ? 4 : 1);
const HISTORY_SIZES = [10, 200, 2_000, 20_000];
/** Fullscreen (the default) and regular mode, where the transcript goes to terminal scrollback. */
const MODES: readonly TuiMode[] = ["fullscreen", "regular"];

/** Row names keep their fullscreen form; regular-mode rows say so. */
const labelIn = (contender: Contender, mode: TuiMode) =>
	mode === "fullscreen" ? contender.label : `${contender.label} (regular)`;

function percentile(samples: readonly number[], p: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

async function streaming(
	ctx: BenchContext,
	contender: Contender,
	box: Box,
	server: MockLlmServer,
	answer: StreamedAnswer,
	rate: number,
	mode: TuiMode,
): Promise<void> {
	const echo: number[] = [];
	const cpu: number[] = [];
	const bytes: number[] = [];
	const catchUp: number[] = [];
	for (let round = 0; round < roundsAt(rate); round++) {
		const result = await streamWhileTyping(contender, box, server, answer, rate, mode);
		echo.push(...result.echoMs);
		cpu.push(result.cpuPercent);
		bytes.push(result.bytesPerToken);
		catchUp.push(result.catchUpMs);
	}
	const name = (what: string) => `tui: ${labelIn(contender, mode)} ${answer.name} at ${rate} tok/s, ${what}`;
	ctx.record(name("keystroke echo"), "ms", echo);
	ctx.record(name("keystroke echo p95"), "ms", [percentile(echo, 0.95)]);
	ctx.record(name("CPU"), "%", cpu);
	ctx.record(name("output per token"), "bytes", bytes);
	ctx.record(name("screen behind the stream at its end"), "ms", catchUp);
}

/** Every scenario, each run by every contender in turn (so load changes hit them alike). */
async function benchAll(ctx: BenchContext, contenders: readonly Contender[], cleanup: string[]): Promise<void> {
	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		for (const mode of MODES) {
			for (const answer of [codeBlockAnswer(), paragraphAnswer()])
				for (const rate of RATES)
					for (const contender of contenders) await streaming(ctx, contender, box, server, answer, rate, mode);
			for (const entries of HISTORY_SIZES) {
				for (const contender of contenders) {
					const samples: number[] = [];
					for (let i = 0; i < (entries >= 20_000 ? 2 : 3); i++)
						samples.push(await firstFrameMs(contender, box, entries, mode));
					ctx.record(`tui: ${labelIn(contender, mode)} first frame, ${entries} entries`, "ms", samples);
				}
			}
		}
	});
}

const bench: Bench = async (ctx) => {
	const unavailable = ptyUnavailable();
	if (unavailable) {
		console.error(`tui bench skipped: ${unavailable}`);
		return;
	}
	const cleanup: string[] = [];
	try {
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) {
			console.error(`tui bench: pi 1.6 comparison left out (${reference.skipped})`);
			await benchAll(ctx, [{ label: "tau", node: process.execPath, cli: CLI }], cleanup);
		} else {
			// Both on the Node 22 pi needs.
			await benchAll(ctx, reference.contenders, cleanup);
		}
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
