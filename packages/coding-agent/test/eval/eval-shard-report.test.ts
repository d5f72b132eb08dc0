import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import {
	captureIO,
	evalRunArgs,
	SUITE_SCRIPTS,
	scriptedServer,
	tempDir,
	userAgentDir,
	writeSuite,
	writeTask,
} from "./eval-fixtures.js";

const saved = { agentDir: process.env.TAU_CODING_AGENT_DIR, index: process.env.JOB_COMPLETION_INDEX };
afterEach(() => {
	for (const [name, value] of [
		["TAU_CODING_AGENT_DIR", saved.agentDir],
		["JOB_COMPLETION_INDEX", saved.index],
	] as const) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

/** summary.json without wall-clock figures, which differ between any two runs. */
function figures(dir: string): unknown {
	const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
	const strip = (entry: Record<string, unknown>) => {
		const { durationMs: _durationMs, ...rest } = entry;
		return rest;
	};
	return { overall: strip(summary.overall), tasks: summary.tasks.map(strip) };
}

function trialsOf(dir: string): string[] {
	return readFileSync(join(dir, "trials.jsonl"), "utf8")
		.trim()
		.split("\n")
		.map((line) => {
			const record = JSON.parse(line) as { task: string; trial: number };
			return `${record.task}#${record.trial}`;
		});
}

// Three runs of twelve trials each in the shard test: generous limits on a machine shared with other tests.
describe("tau eval: shards, merge, report, compare, check", { timeout: 120_000 }, () => {
	let suite: string;
	let runArgs: (out: string, ...extra: string[]) => string[];

	beforeEach(async () => {
		const server = await scriptedServer(SUITE_SCRIPTS);
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		suite = writeSuite();
		runArgs = (out, ...extra) => evalRunArgs(suite, user.settings, out, "-k", "4", ...extra);
	});

	it("--shard slices the trials deterministically and merge gives the same summary as one concurrent run", async () => {
		const whole = tempDir("whole");
		const first = tempDir("shard1");
		const second = tempDir("shard2");
		const merged = tempDir("merged");
		// The single run runs three trials at a time: concurrency must not change any figure.
		expect(await main(runArgs(whole, "-j", "3"), captureIO().io)).toBe(0);
		expect(await main(runArgs(first, "--shard", "1/2"), captureIO().io)).toBe(0);
		// The second shard takes its index from a Kubernetes Indexed Job (0-based).
		process.env.JOB_COMPLETION_INDEX = "1";
		expect(await main(runArgs(second, "--shard", "2"), captureIO().io)).toBe(0);
		expect(trialsOf(first)).toEqual(["alpha#0", "alpha#2", "beta#0", "beta#2", "gamma#0", "gamma#2"]);
		expect(trialsOf(second)).toEqual(["alpha#1", "alpha#3", "beta#1", "beta#3", "gamma#1", "gamma#3"]);

		const { io, out } = captureIO();
		expect(await main(["eval", "merge", first, second, "--out", merged], io)).toBe(0);
		expect(out.stdout).toContain("overall");
		expect(figures(merged)).toEqual(figures(whole));
		// A trial in two inputs is refused rather than counted twice.
		const refused = captureIO();
		expect(await main(["eval", "merge", first, first, "--out", tempDir("twice")], refused.io)).toBe(1);
		expect(refused.out.stderr).toContain("appears in more than one run directory");
	});

	it("report prints the table and writes Markdown and HTML linking each trial's session page", async () => {
		const run = tempDir("report");
		await main(runArgs(run, "--filter", "alpha"), captureIO().io);
		const { io, out } = captureIO();
		expect(await main(["eval", "report", run], io)).toBe(0);
		expect(out.stdout).toMatch(/alpha\s+4\s+2\s+0\s+50\.0%\s+100\.0%\s+0\.0%/);
		const markdown = readFileSync(join(run, "report.md"), "utf8");
		const html = readFileSync(join(run, "report.html"), "utf8");
		expect(markdown).toContain("| alpha | 4 | 2 | 0 | 50.0% |");
		const links = [...html.matchAll(/<a href="([^"]+)">session<\/a>/g)].map((match) => decodeURI(match[1] ?? ""));
		expect(links).toHaveLength(4);
		for (const link of links) {
			expect(readFileSync(join(run, link), "utf8")).toContain("<html");
		}
		expect(markdown.match(/\[session\]\(/g)).toHaveLength(4);
	});

	it("compare shows per-task deltas with Fisher's exact test as the significance hint", async () => {
		const a = tempDir("cmp-a");
		const b = tempDir("cmp-b");
		await main(runArgs(a, "--filter", "alpha"), captureIO().io);
		// B: the same task where every trial passes.
		const server = await scriptedServer(
			Object.fromEntries(
				[0, 1, 2, 3].map((trial) => [`alpha#${trial}`, { tool: "write", path: "answer.txt", content: "42" }]),
			),
		);
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		await main(evalRunArgs(suite, user.settings, b, "-k", "4", "--filter", "alpha"), captureIO().io);
		const { io, out } = captureIO();
		expect(await main(["eval", "compare", a, b], io)).toBe(0);
		// 2/4 against 4/4: of the tables with 6 passes in 8, a=2 and a=4 (6/28 each) are at most as likely: p = 12/28.
		expect(out.stdout).toMatch(/alpha\s+2\/4 \(50\.0%\)\s+4\/4 \(100\.0%\)\s+\+50\.0 pts\s+0\.429\s+likely noise/);
	});

	it("check passes a sound task and names what is wrong with broken ones", async () => {
		const tasks = tempDir("check");
		writeTask(tasks, "sound", { test: '[ "$(cat answer.txt 2>/dev/null)" = "42" ]', solve: "echo 42 > answer.txt" });
		writeTask(tasks, "lenient", { test: "exit 0", solve: "true" });
		writeTask(tasks, "wrong-solution", { test: "[ -f done ]", solve: "echo nope > other" });
		const { io, out } = captureIO();
		expect(await main(["eval", "check", join(tasks, "sound"), tasks, "--backend", "local"], io)).toBe(1);
		expect(out.stdout).toContain("OK   sound");
		expect(out.stdout).toContain("FAIL lenient\n     - the verifier passes an empty attempt");
		expect(out.stdout).toContain("FAIL wrong-solution\n     - the verifier does not pass the reference solution");
		const good = captureIO();
		expect(await main(["eval", "check", join(tasks, "sound")], good.io)).toBe(0);
		expect(existsSync(join(tasks, "sound", "environment", "answer.txt"))).toBe(false);
	});
});
