import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, collectRun, sandbox, startCli } from "../e2e/harness.js";
import { evalRunArgs, SUITE_SCRIPTS, scriptedServer, tempDir, userAgentDir, writeSuite } from "./eval-fixtures.js";

function recordedTrials(out: string): string[] {
	const path = join(out, "trials.jsonl");
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => {
			const record = JSON.parse(line) as { task: string; trial: number };
			return `${record.task}#${record.trial}`;
		});
}

/** The built CLI in a sandbox whose agent dir points the `mock` provider at the scripted server. */
async function evalCli(onRequest: (trial: string | undefined) => void) {
	const server = await scriptedServer(SUITE_SCRIPTS, (trial) => onRequest(trial));
	const user = userAgentDir(server);
	const box = sandbox();
	const env = { TAU_CODING_AGENT_DIR: user.agentDir };
	const suite = writeSuite();
	const out = tempDir("resume-out");
	const runArgs = evalRunArgs(suite, user.settings, out, "-k", "4");
	return { box, env, out, runArgs };
}

describe.skipIf(!cliBuilt)(
	"tau eval run: interruption (built CLI; skipped until `npm run build`)",
	{ timeout: 120_000 },
	() => {
		it("--resume after the process was killed mid-run finishes the run without redoing recorded trials", async () => {
			let child: ReturnType<typeof startCli> | undefined;
			let resumed = false;
			const afterResume: string[] = [];
			const setup = await evalCli((trial) => {
				if (resumed && trial) afterResume.push(trial);
				// Killed while the third trial's agent waits for the model: two trials are recorded by then.
				if (!resumed && trial === "alpha#2") child?.kill("SIGKILL");
			});
			child = startCli(setup.box, setup.runArgs, { env: setup.env });
			const killed = await collectRun(child);
			expect(killed.signal).toBe("SIGKILL");
			expect(recordedTrials(setup.out)).toEqual(["alpha#0", "alpha#1"]);

			resumed = true;
			const resume = await collectRun(
				startCli(setup.box, ["eval", "run", "--resume", setup.out], { env: setup.env }),
			);
			expect(resume.stderr).toContain("resuming: 2 of 12 trials already recorded");
			expect(resume.code).toBe(0);
			expect(afterResume).not.toContain("alpha#0");
			expect(afterResume).not.toContain("alpha#1");
			expect(afterResume).toContain("alpha#2");
			expect(recordedTrials(setup.out).sort()).toEqual(Object.keys(SUITE_SCRIPTS).sort());
			const summary = JSON.parse(readFileSync(join(setup.out, "summary.json"), "utf8"));
			expect(summary.overall).toMatchObject({ trials: 10, passes: 5, infraErrors: 2 });
			expect(summary.overall.passHat["2"]).toBeCloseTo((1 / 6 + 0 + 1 / 3) / 3, 10);
		});

		it("Ctrl+C stops cleanly: the running trial is aborted and not recorded, results so far are written", async () => {
			let child: ReturnType<typeof startCli> | undefined;
			const setup = await evalCli((trial) => {
				if (trial === "alpha#1") child?.kill("SIGINT");
			});
			child = startCli(setup.box, setup.runArgs, { env: setup.env });
			const result = await collectRun(child);
			expect(result.code).toBe(130);
			expect(result.stderr).toContain("STOPPED alpha #1");
			expect(result.stderr).toContain(`tau eval run --resume ${setup.out}`);
			expect(recordedTrials(setup.out)).toEqual(["alpha#0"]);
			const summary = JSON.parse(readFileSync(join(setup.out, "summary.json"), "utf8"));
			expect(summary.overall).toMatchObject({ trials: 1, passes: 1 });
		});
	},
);
