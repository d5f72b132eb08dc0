import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createProgressReporter } from "../../src/eval/progress/progress-display.js";
import type { TrialRecord } from "../../src/eval/results/trial-record.js";
import { main } from "../../src/main.js";
import { captureIO, tempDir } from "./eval-fixtures.js";

const SUITE = resolve(import.meta.dirname, "../../../../examples/eval/suite");
const saved = process.env.TAU_CODING_AGENT_DIR;
afterEach(() => {
	if (saved === undefined) delete process.env.TAU_CODING_AGENT_DIR;
	else process.env.TAU_CODING_AGENT_DIR = saved;
});

describe("examples/eval", { timeout: 120_000 }, () => {
	it("passes tau eval check and runs offline with the demo model: the README task passes, the file task fails", async () => {
		process.env.TAU_CODING_AGENT_DIR = tempDir("example-agent");
		const check = captureIO();
		expect(await main(["eval", "check", SUITE, "--backend", "local"], check.io)).toBe(0);
		expect(check.out.stdout).toBe("OK   create-greeting\nOK   summarize-readme\n");

		const out = tempDir("example-run");
		const run = captureIO();
		const args = ["eval", "run", SUITE, "--model", "demo/offline", "-k", "2", "--backend", "local", "--out", out];
		expect(await main(args, run.io)).toBe(0);
		const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
		expect(summary.tasks.map((task: { task: string; passes: number }) => [task.task, task.passes])).toEqual([
			["create-greeting", 0],
			["summarize-readme", 2],
		]);
		expect(summary.overall.passAt["1"]).toBe(0.5);
	});
});

function record(outcome: TrialRecord["outcome"], durationMs: number): TrialRecord {
	return {
		task: "t",
		trial: 0,
		outcome,
		reward: outcome === "pass" ? 1 : 0,
		pass: outcome === "pass",
		durationMs,
		turns: 2,
		toolCalls: 1,
		tokens: { input: 900, output: 100, cacheRead: 0, cacheWrite: 0, total: 1000 },
		cost: 0.25,
		stopReason: "stop",
	};
}

describe("eval progress display", () => {
	it("redraws one status line on a terminal: done / running / failed, pass rate, tokens, cost and ETA", () => {
		let screen = "";
		const progress = createProgressReporter(
			(text) => {
				screen += text;
			},
			{ live: true, concurrency: 2 },
		);
		progress.begin(6, [record("pass", 1000)]);
		progress.trialStarted("t", 1);
		progress.trialStarted("t", 2);
		progress.trialFinished(record("fail", 4000));
		const lastLine = screen.slice(screen.lastIndexOf("\r\x1b[2K") + "\r\x1b[2K".length);
		// 4 trials left at 4 s each, two at a time.
		expect(lastLine).toBe(
			"2/6 done · 1 running · 1 failed · 0 infra errors · pass 50.0% · 2,000 tokens · $0.5000 · ETA 8s",
		);
		expect(screen).toContain("FAIL t #0 reward=0");
	});

	it("prints one plain line per trial without a terminal", () => {
		const lines: string[] = [];
		const progress = createProgressReporter((text) => lines.push(text), { live: false, concurrency: 1 });
		progress.begin(2, []);
		progress.trialStarted("t", 0);
		progress.trialFinished(record("infra_error", 1000));
		progress.end();
		expect(lines.join("")).not.toContain("\r");
		expect(lines).toEqual([
			"INFRA t #0 reward=0 1s 2 turns 1000 tokens $0.2500\n",
			"1/2 done · 0 running · 0 failed · 1 infra errors · pass – · 1,000 tokens · $0.2500 · ETA 1s\n",
		]);
	});
});
