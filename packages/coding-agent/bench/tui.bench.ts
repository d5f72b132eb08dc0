// The interactive UI in a real pseudo-terminal against the built CLI, tau beside pi 1.6 in the same
// run (same mock server, same scripted answers): keystroke echo and CPU while answers stream, output
// per streamed token, and the first frame of long sessions. Needs Linux and util-linux `script`.
// TAU_TUI_BENCH selects scenarios by words (see FILTER below).
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { MockLlmServer } from "@tau/testkit";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { type Box, type Contender, makeBox, withServer } from "./cli-harness.js";
import { referenceContenders } from "./reference-pi.js";
import { codeBlockAnswer, paragraphAnswer, type StreamedAnswer } from "./tui/answers.js";
import { firstFrame } from "./tui/history.js";
import { ptyUnavailable } from "./tui/pty-process.js";
import { streamWhileTyping, type TuiMode } from "./tui/streaming.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");
const RATES = [50, 500];
/** TAU_TUI_BENCH_ROUNDS multiplies the runs of every scenario (steadier medians on a noisy machine). */
const ROUNDS = Math.max(1, Number(process.env.TAU_TUI_BENCH_ROUNDS) || 1);
/** A fast stream ends within seconds: it is repeated for enough keystrokes. */
const roundsAt = (tokensPerSecond: number) => (tokensPerSecond >= 500 ? 4 : 1) * ROUNDS;
const HISTORY_SIZES = [10, 200, 2_000, 20_000];
/** Fullscreen (the default) and regular mode, where the transcript goes to terminal scrollback. */
const MODES: readonly TuiMode[] = ["fullscreen", "regular"];

/**
 * TAU_TUI_BENCH selects scenarios by words, all of which must match one of a scenario's tags: its
 * kind (`streaming`, `history`), mode (`fullscreen`, `regular`), answer (`code`, `paragraph`) and rate
 * (`50`, `500`), or for first frames its kind (`history`, also `first-frame`), mode and entry count.
 * `TAU_TUI_BENCH="streaming regular code 500"` runs one row per contender.
 */
const FILTER = (process.env.TAU_TUI_BENCH ?? "").split(/\s+/).filter(Boolean);
const selected = (...tags: (string | number)[]) => FILTER.every((word) => tags.some((tag) => String(tag) === word));

/** Row names keep their fullscreen form; regular-mode rows say so. */
const labelIn = (contender: Contender, mode: TuiMode) =>
	mode === "fullscreen" ? contender.label : `${contender.label} (regular)`;

function percentile(samples: readonly number[], p: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** One streaming scenario; the contenders take turns round by round, so load changes hit them alike. */
async function streaming(
	ctx: BenchContext,
	contenders: readonly Contender[],
	box: Box,
	server: MockLlmServer,
	answer: StreamedAnswer,
	rate: number,
	mode: TuiMode,
): Promise<void> {
	const results = contenders.map(() => ({
		echo: [] as number[],
		cpu: [] as number[],
		bytes: [] as number[],
		catchUp: [] as number[],
	}));
	for (let round = 0; round < roundsAt(rate); round++) {
		for (const [i, contender] of contenders.entries()) {
			const result = await streamWhileTyping(contender, box, server, answer, rate, mode);
			const into = results[i]!;
			into.echo.push(...result.echoMs);
			into.cpu.push(result.cpuPercent);
			into.bytes.push(result.bytesPerToken);
			into.catchUp.push(result.catchUpMs);
		}
	}
	for (const [i, contender] of contenders.entries()) {
		const { echo, cpu, bytes, catchUp } = results[i]!;
		const name = (what: string) => `tui: ${labelIn(contender, mode)} ${answer.name} at ${rate} tok/s, ${what}`;
		ctx.record(name("keystroke echo"), "ms", echo);
		ctx.record(name("keystroke echo p95"), "ms", [percentile(echo, 0.95)]);
		ctx.record(name("CPU"), "%", cpu);
		ctx.record(name("output per token"), "bytes", bytes);
		ctx.record(name("screen behind the stream at its end"), "ms", catchUp);
	}
}

/**
 * Wall time to the first frame, and the CPU the program used until then (steadier than wall time on
 * a loaded machine).
 */
async function firstFrames(
	ctx: BenchContext,
	contender: Contender,
	box: Box,
	entries: number,
	mode: TuiMode,
): Promise<void> {
	const wall: number[] = [];
	const cpu: number[] = [];
	const withTotals: number[] = [];
	for (let i = 0; i < (entries >= 20_000 ? 2 : 3) * ROUNDS; i++) {
		const frame = await firstFrame(contender, box, entries, mode);
		wall.push(frame.ms);
		cpu.push(frame.cpuMs);
		withTotals.push(frame.withTotalsMs);
	}
	ctx.record(`tui: ${labelIn(contender, mode)} first frame, ${entries} entries`, "ms", wall);
	ctx.record(`tui: ${labelIn(contender, mode)} first frame CPU, ${entries} entries`, "ms", cpu);
	ctx.record(`tui: ${labelIn(contender, mode)} footer totals shown, ${entries} entries`, "ms", withTotals);
}

/** Every selected scenario, each run by every contender in turn (so load changes hit them alike). */
async function benchAll(ctx: BenchContext, contenders: readonly Contender[], cleanup: string[]): Promise<void> {
	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		for (const mode of MODES) {
			for (const answer of [codeBlockAnswer(), paragraphAnswer()])
				for (const rate of RATES)
					if (selected("streaming", mode, answer.tag, rate))
						await streaming(ctx, contenders, box, server, answer, rate, mode);
			for (const entries of HISTORY_SIZES)
				if (selected("history", "first-frame", mode, entries))
					for (const contender of contenders) await firstFrames(ctx, contender, box, entries, mode);
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
