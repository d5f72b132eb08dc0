// The interactive UI in a real pseudo-terminal against the built CLI, tau beside pi 1.6 in the same
// run (same mock server, same scripted answers): keystroke echo and CPU while answers stream, output
// per streamed token, and the first frame of long sessions. Needs Linux and util-linux `script`.
// TAU_TUI_BENCH=streaming or TAU_TUI_BENCH=first-frame runs only those scenarios (both modes).
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
/** A fast stream ends within seconds: it is repeated for enough keystrokes. */
const roundsAt = (tokensPerSecond: number) => (tokensPerSecond >= 500 ? 4 : 1);
const HISTORY_SIZES = [10, 200, 2_000, 20_000];
/** Fullscreen (the default) and regular mode, where the transcript goes to terminal scrollback. */
const MODES: readonly TuiMode[] = ["fullscreen", "regular"];

/** Row names keep their fullscreen form; regular-mode rows say so. */
const labelIn = (contender: Contender, mode: TuiMode) =>
	mode === "fullscreen" ? contender.label : `${contender.label} (regular)`;

const SCENARIOS = ["streaming", "first-frame"] as const;
type Scenario = (typeof SCENARIOS)[number];

/** The scenarios TAU_TUI_BENCH names (comma-separated), or all of them. */
function selectedScenarios(): ReadonlySet<Scenario> | string {
	const wanted = process.env.TAU_TUI_BENCH?.split(",")
		.map((name) => name.trim())
		.filter((name) => name !== "");
	if (!wanted || wanted.length === 0) return new Set(SCENARIOS);
	const unknown = wanted.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
	if (unknown.length > 0)
		return `unknown TAU_TUI_BENCH scenario ${unknown.join(", ")} (known: ${SCENARIOS.join(", ")})`;
	return new Set(wanted as Scenario[]);
}

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
	for (let i = 0; i < (entries >= 20_000 ? 2 : 3); i++) {
		const frame = await firstFrame(contender, box, entries, mode);
		wall.push(frame.ms);
		cpu.push(frame.cpuMs);
	}
	ctx.record(`tui: ${labelIn(contender, mode)} first frame, ${entries} entries`, "ms", wall);
	ctx.record(`tui: ${labelIn(contender, mode)} first frame CPU, ${entries} entries`, "ms", cpu);
}

/** Every selected scenario, each run by every contender in turn (so load changes hit them alike). */
async function benchAll(
	ctx: BenchContext,
	contenders: readonly Contender[],
	scenarios: ReadonlySet<Scenario>,
	cleanup: string[],
): Promise<void> {
	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		for (const mode of MODES) {
			if (scenarios.has("streaming"))
				for (const answer of [codeBlockAnswer(), paragraphAnswer()])
					for (const rate of RATES)
						for (const contender of contenders) await streaming(ctx, contender, box, server, answer, rate, mode);
			if (scenarios.has("first-frame"))
				for (const entries of HISTORY_SIZES)
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
	const scenarios = selectedScenarios();
	if (typeof scenarios === "string") throw new Error(scenarios);
	const cleanup: string[] = [];
	try {
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) {
			console.error(`tui bench: pi 1.6 comparison left out (${reference.skipped})`);
			await benchAll(ctx, [{ label: "tau", node: process.execPath, cli: CLI }], scenarios, cleanup);
		} else {
			// Both on the Node 22 pi needs.
			await benchAll(ctx, reference.contenders, scenarios, cleanup);
		}
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
