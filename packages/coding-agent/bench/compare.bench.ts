// The headless hot paths side by side: tau against pi 1.6 and against tau's previous release
// (TAU_BENCH_BASELINE), all on pi's Node 22, plus tau's `-p` on the Node running the benchmark. Runs
// alternate between the contenders (A B C A B C ...) so a drifting machine affects them alike; each
// row is a median of CPU time (user + system of the process and the children it waited for), wall
// time or peak RSS, and the ratio table at the end compares the medians. The 50k/200k/800k-token
// streams and 100 KB/500 KB/2 MB tool arguments show how each cost grows with its input.
// TAU_BENCH_SCENARIO=<text> runs only the rows whose name contains it (e.g. "write argument").
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { baselineContender } from "./baseline.js";
import { type Contender, makeBox, type RunCost, runCli, withServer } from "./cli-harness.js";
import { SCENARIOS, type Scenario } from "./headless-scenarios.js";
import { referenceContenders } from "./reference-pi.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");

const median = (values: readonly number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2
		? (sorted[middle] as number)
		: ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function runScenario(
	ctx: BenchContext,
	scenario: Scenario,
	contenders: readonly Contender[],
	cleanup: string[],
): Promise<Map<string, RunCost[]>> {
	const costs = new Map<string, RunCost[]>();
	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		scenario.setup?.(box.project);
		const taking = contenders.filter((contender) => scenario.only?.(contender.label) ?? true);
		for (let run = 0; run < scenario.runs; run++) {
			for (const contender of taking) {
				server.enqueue(...scenario.replies());
				const cost = await runCli(contender, box, scenario.args);
				costs.set(contender.label, [...(costs.get(contender.label) ?? []), cost]);
			}
		}
	});
	for (const [label, runs] of costs) {
		const row = (what: string) => `compare: ${scenario.name}, ${label} (${what})`;
		const measures: Array<[string, string, (run: RunCost) => number]> = [
			["cpu", "ms", (run) => run.cpuMs],
			["wall", "ms", (run) => run.wallMs],
			["peak RSS", "MB", (run) => run.peakRssMb],
		];
		// Where the main thread's wall time went, when the system tells (see MainThreadTime).
		if (runs.every((run) => run.mainThread)) {
			measures.push(
				["main thread cpu", "ms", (run) => run.mainThread?.cpuMs ?? 0],
				["main thread run-queue wait", "ms", (run) => run.mainThread?.runQueueMs ?? 0],
				["main thread idle", "ms", (run) => run.mainThread?.idleMs ?? 0],
			);
		}
		for (const [what, unit, pick] of measures) ctx.record(row(what), unit, runs.map(pick));
	}
	return costs;
}

/** One line per scenario and measure: tau's median over each other contender's. */
function printRatios(results: ReadonlyMap<string, ReadonlyMap<string, RunCost[]>>, tau: string): void {
	const lines = ["", `ratios of ${tau} to each contender (medians; below 1 means tau is faster or smaller)`];
	for (const [scenario, costs] of results) {
		const mine = costs.get(tau);
		if (!mine) continue;
		for (const [label, theirs] of costs) {
			if (label === tau) continue;
			const ratio = (pick: (cost: RunCost) => number) =>
				(median(mine.map(pick)) / median(theirs.map(pick))).toFixed(2);
			const mainCpu = [...mine, ...theirs].every((cost) => cost.mainThread)
				? `, main thread cpu ${ratio((c) => c.mainThread?.cpuMs ?? 0)}`
				: "";
			lines.push(
				`${scenario} vs ${label}: cpu ${ratio((c) => c.cpuMs)}${mainCpu}, wall ${ratio((c) => c.wallMs)}, peak RSS ${ratio((c) => c.peakRssMb)}`,
			);
		}
	}
	console.log(lines.join("\n"));
}

const bench: Bench = async (ctx) => {
	const reference = referenceContenders(CLI);
	if ("skipped" in reference) {
		console.error(`compare bench: left out, it needs pi 1.6 and its Node 22 (${reference.skipped})`);
		return;
	}
	const [tau22, pi] = reference.contenders as [Contender, Contender];
	const contenders: Contender[] = [
		tau22,
		pi,
		{ label: `tau (node ${process.versions.node})`, node: process.execPath, cli: CLI },
	];
	const baseline = baselineContender(tau22.node);
	if ("skipped" in baseline) console.error(`compare bench: no previous release (${baseline.skipped})`);
	else contenders.push(baseline.contender);
	const onThisNode = contenders[2]!.label;
	const cleanup: string[] = [];
	const results = new Map<string, Map<string, RunCost[]>>();
	// TAU_BENCH_SCENARIO=<text> runs only the scenarios whose name contains it (e.g. "tool calls").
	const filter = process.env.TAU_BENCH_SCENARIO;
	const scenarios = filter ? SCENARIOS.filter((scenario) => scenario.name.includes(filter)) : SCENARIOS;
	try {
		for (const scenario of scenarios) {
			// tau on the benchmark's own Node runs only the scripted one-shot (the Node 20 row).
			const only = (label: string) => label !== onThisNode || scenario.args.includes("-p");
			results.set(scenario.name, await runScenario(ctx, { ...scenario, only }, contenders, cleanup));
		}
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
	printRatios(results, tau22.label);
	const onThisNodeResults = new Map([...results].filter(([, costs]) => costs.has(onThisNode)));
	printRatios(onThisNodeResults, onThisNode);
};

export default bench;
