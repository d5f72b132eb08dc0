import type { BackendChooser } from "../backend/choose-backend.js";
import type { EvalSummary } from "../metrics/summary.js";
import type { ProgressReporter } from "../progress/progress-display.js";
import { appendTrial, type RunConfig, readTrials, writeSummary } from "../results/run-directory.js";
import { type TrialRecord, trialKey } from "../results/trial-record.js";
import { shardSlice } from "../shard/shard.js";
import type { HarborTask } from "../task/harbor-task.js";
import { selectTasks } from "../task/select-tasks.js";
import { runTrial, TrialInterrupted } from "../trial/run-trial.js";

export interface RunEvalOptions {
	config: RunConfig;
	outDir: string;
	userAgentDir: string;
	backends: BackendChooser;
	progress: ProgressReporter;
	/** Ctrl+C: running trials are aborted and not recorded; the summary covers what was recorded. */
	signal: AbortSignal;
}

export interface RunEvalResult {
	summary: EvalSummary;
	records: TrialRecord[];
	interrupted: boolean;
}

interface PlannedTrial {
	task: HarborTask;
	trial: number;
}

/** Every trial of the run in a fixed order (tasks by name, then index), before sharding. */
export function planTrials(tasks: readonly HarborTask[], k: number): PlannedTrial[] {
	const ordered = [...tasks].sort((a, b) => a.name.localeCompare(b.name));
	return ordered.flatMap((task) => Array.from({ length: k }, (_, trial) => ({ task, trial })));
}

/**
 * Runs the trials of `run.json` not yet in `trials.jsonl`, `concurrency` at a time, appending each
 * record as it ends, then writes `summary.json` over every recorded trial.
 */
export async function runEval(options: RunEvalOptions): Promise<RunEvalResult> {
	const { config, outDir, signal, progress } = options;
	const tasks = selectTasks(config.paths, config.filter);
	const planned = shardSlice(planTrials(tasks, config.k), config.shard);
	const recorded = readTrials(outDir);
	const done = new Set(recorded.map(trialKey));
	const pending = planned.filter((item) => !done.has(trialKey({ task: item.task.name, trial: item.trial })));
	const plannedKeys = new Set(planned.map((item) => trialKey({ task: item.task.name, trial: item.trial })));
	progress.begin(
		planned.length,
		recorded.filter((record) => plannedKeys.has(trialKey(record))),
	);
	let next = 0;
	let interrupted = false;
	const worker = async () => {
		while (!signal.aborted && next < pending.length) {
			const item = pending[next++] as PlannedTrial;
			progress.trialStarted(item.task.name, item.trial);
			try {
				const record = await runTrial({
					task: item.task,
					trial: item.trial,
					backend: await options.backends.forTask(item.task),
					setup: config.setup,
					userAgentDir: options.userAgentDir,
					outDir,
					signal,
				});
				appendTrial(outDir, record);
				progress.trialFinished(record);
			} catch (error) {
				if (!(error instanceof TrialInterrupted)) throw error;
				interrupted = true;
				progress.trialInterrupted(item.task.name, item.trial);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(config.concurrency, pending.length)) }, worker));
	progress.end();
	const records = readTrials(outDir);
	return { summary: writeSummary(outDir, records), records, interrupted: interrupted || signal.aborted };
}
