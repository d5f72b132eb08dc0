import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../../core/errors.js";
import { DEFAULT_AGENT_TIMEOUT_SEC, DEFAULT_VERIFIER_TIMEOUT_SEC, type TrialSandbox } from "../backend/backend.js";
import type { BackendChooser } from "../backend/choose-backend.js";
import { loadTask, TaskFormatError, taskDirectories } from "../task/harbor-task.js";
import { scoreVerifier } from "../trial/verifier-score.js";

export interface TaskCheck {
	path: string;
	name: string;
	problems: string[];
	warnings: string[];
}

/** Opens a fresh sandbox for one check step in its own temp dir, always cleaned up. */
async function inSandbox<T>(
	open: (dir: string) => Promise<TrialSandbox>,
	body: (sandbox: TrialSandbox) => Promise<T>,
): Promise<T> {
	const dir = mkdtempSync(join(tmpdir(), "tau-eval-check-"));
	let sandbox: TrialSandbox | undefined;
	try {
		sandbox = await open(dir);
		return await body(sandbox);
	} finally {
		await sandbox?.dispose().catch(() => undefined);
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * `tau eval check`: the task's format, then that `solution/solve.sh` passes the verifier and that an
 * untouched workspace (an empty attempt) fails it. Each step gets a fresh sandbox.
 */
export async function checkTasks(paths: readonly string[], backends: BackendChooser): Promise<TaskCheck[]> {
	const checks: TaskCheck[] = [];
	for (const path of paths) {
		let dirs: string[];
		try {
			dirs = taskDirectories(path);
		} catch (error) {
			checks.push({ path, name: path, problems: [(error as Error).message], warnings: [] });
			continue;
		}
		for (const dir of dirs) checks.push(await checkTask(dir, backends));
	}
	return checks;
}

async function checkTask(dir: string, backends: BackendChooser): Promise<TaskCheck> {
	const check: TaskCheck = { path: dir, name: dir, problems: [], warnings: [] };
	let task: ReturnType<typeof loadTask>;
	try {
		task = loadTask(dir);
	} catch (error) {
		if (!(error instanceof TaskFormatError)) throw error;
		check.problems.push(error.message);
		return check;
	}
	check.name = task.name;
	check.warnings.push(...task.warnings);
	const backend = await backends.forTask(task);
	const open = (trialDir: string) => backend.open(task, { dir: trialDir, logsDir: join(trialDir, "logs") });
	const verifierTimeout = task.config.verifierTimeoutSec ?? DEFAULT_VERIFIER_TIMEOUT_SEC;
	try {
		if (!task.solutionDir) check.problems.push("solution/ is missing: the verifier cannot be shown to pass");
		else {
			const solved = await inSandbox(open, async (sandbox) => {
				const solution = await sandbox.runSolution(task.config.agentTimeoutSec ?? DEFAULT_AGENT_TIMEOUT_SEC);
				if (solution.exitCode !== 0)
					return `solution/solve.sh failed (exit ${solution.exitCode}): ${solution.output.trim().slice(-300)}`;
				const score = scoreVerifier(await sandbox.verify(verifierTimeout));
				return score.outcome === "pass"
					? undefined
					: `the verifier does not pass the reference solution (${score.error ?? `reward ${score.reward}`})`;
			});
			if (solved) check.problems.push(solved);
		}
		const empty = await inSandbox(open, async (sandbox) => scoreVerifier(await sandbox.verify(verifierTimeout)));
		if (empty.outcome === "pass") check.problems.push("the verifier passes an empty attempt");
		if (empty.outcome === "infra_error")
			check.problems.push(`the verifier crashes on an empty attempt: ${empty.error}`);
	} catch (error) {
		check.problems.push(errorMessage(error));
	}
	return check;
}
