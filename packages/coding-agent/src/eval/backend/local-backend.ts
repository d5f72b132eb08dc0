import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { HarborTask } from "../task/harbor-task.js";
import type { EvalBackend, TrialPaths, TrialSandbox, VerifierOutcome } from "./backend.js";
import { readRewardFile } from "./reward-file.js";
import { runProcess } from "./run-process.js";

/** Files of `environment/` that describe the image rather than belong in the workspace. */
const IMAGE_FILES = new Set(["Dockerfile", "docker-compose.yaml", "docker-compose.yml", ".dockerignore"]);

/** Copies a ground-truth folder into a fresh private temp dir, outside every trial's tree. */
function stage(source: string, label: string): string {
	const dir = mkdtempSync(join(tmpdir(), `tau-eval-${label}-`));
	cpSync(source, dir, { recursive: true });
	return dir;
}

/**
 * The `local` backend: the workspace is a temporary copy of `environment/` (docs/eval.md). The agent's
 * and the verifier's working directory is that workspace; `tests/` and `solution/` are staged only
 * after the agent finished, in a temp dir named by `TESTS_DIR`/`SOLUTION_DIR`, and removed again.
 */
export class LocalBackend implements EvalBackend {
	readonly name = "local";

	async open(task: HarborTask, paths: TrialPaths): Promise<TrialSandbox> {
		const workdir = join(paths.dir, "workspace");
		mkdirSync(workdir, { recursive: true });
		mkdirSync(join(paths.logsDir, "agent"), { recursive: true });
		mkdirSync(join(paths.logsDir, "verifier"), { recursive: true });
		const environment = task.environmentDir;
		if (environment) {
			cpSync(environment, workdir, {
				recursive: true,
				filter: (source) => !(dirname(source) === environment && IMAGE_FILES.has(basename(source))),
			});
		}
		/** Runs a staged copy of a ground-truth folder's script in the workspace, then removes the copy. */
		const runStaged = async (
			source: string,
			label: string,
			script: string,
			timeoutSec: number,
			signal?: AbortSignal,
		) => {
			const staged = stage(source, label);
			try {
				return await runProcess("bash", [join(staged, script)], {
					cwd: workdir,
					env: {
						...process.env,
						...task.config.verifierEnv,
						LOGS_DIR: paths.logsDir,
						[label === "tests" ? "TESTS_DIR" : "SOLUTION_DIR"]: staged,
					},
					timeoutSec,
					...(signal ? { signal } : {}),
				});
			} finally {
				rmSync(staged, { recursive: true, force: true });
			}
		};
		return {
			workdir,
			runSolution: async (timeoutSec, signal) => {
				if (!task.solutionDir) return { exitCode: null, output: "solution/ is missing" };
				const result = await runStaged(task.solutionDir, "solution", "solve.sh", timeoutSec, signal);
				return { exitCode: result.exitCode, output: result.output };
			},
			verify: async (timeoutSec, signal): Promise<VerifierOutcome> => {
				const result = await runStaged(task.testsDir, "tests", "test.sh", timeoutSec, signal);
				const reward = readRewardFile(paths.logsDir);
				return { ...result, ...(reward !== undefined ? { reward } : {}) };
			},
			dispose: async () => undefined,
		};
	}
}
