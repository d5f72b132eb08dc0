import type { TrialRecord } from "../results/trial-record.js";
import { passAtK, passHatK, type Spread, spreadOf } from "./estimators.js";

/** Estimators keyed by k ("1", "2", …). */
export type ByK = Record<string, number>;

/** The figures reported for one task and for the whole run. */
export interface Figures {
	/** Trials that count: passes and task failures (infrastructure errors excluded). */
	trials: number;
	passes: number;
	infraErrors: number;
	passAt: ByK;
	passHat: ByK;
	reward: Spread;
	cost: Spread;
	durationMs: Spread;
	tokens: number;
}

export interface TaskSummary extends Figures {
	task: string;
}

/** The overall `passAt`/`passHat` are means over scored tasks, for every k up to the fewest counted trials of any. */
export interface OverallSummary extends Figures {
	tasks: number;
	/** Tasks with at least one counted trial: the ones the overall estimators average. */
	scoredTasks: number;
	totalCost: number;
}

export interface EvalSummary {
	overall: OverallSummary;
	tasks: TaskSummary[];
}

function estimators(n: number, c: number, maxK: number): { passAt: ByK; passHat: ByK } {
	const passAt: ByK = {};
	const passHat: ByK = {};
	for (let k = 1; k <= maxK; k++) {
		passAt[k] = passAtK(n, c, k);
		passHat[k] = passHatK(n, c, k);
	}
	return { passAt, passHat };
}

function summarizeTask(task: string, records: readonly TrialRecord[]): TaskSummary {
	const counted = records.filter((record) => record.outcome !== "infra_error");
	const passes = counted.filter((record) => record.pass).length;
	return {
		task,
		trials: counted.length,
		passes,
		infraErrors: records.length - counted.length,
		...estimators(counted.length, passes, counted.length),
		reward: spreadOf(counted.map((record) => record.reward)),
		cost: spreadOf(records.map((record) => record.cost)),
		durationMs: spreadOf(records.map((record) => record.durationMs)),
		tokens: records.reduce((sum, record) => sum + record.tokens.total, 0),
	};
}

/**
 * `summary.json` from the trial records alone (docs/eval.md, "Metrics"), so a resumed run and merged
 * shards give the same figures as one uninterrupted run. Tasks and trials are ordered by name and index.
 */
export function summarize(records: readonly TrialRecord[]): EvalSummary {
	const byTask = new Map<string, TrialRecord[]>();
	for (const record of [...records].sort((a, b) => a.task.localeCompare(b.task) || a.trial - b.trial)) {
		const list = byTask.get(record.task) ?? [];
		list.push(record);
		byTask.set(record.task, list);
	}
	const tasks = [...byTask].map(([task, list]) => summarizeTask(task, list));
	const scored = tasks.filter((task) => task.trials > 0);
	const maxK = scored.length > 0 ? Math.min(...scored.map((task) => task.trials)) : 0;
	const passAt: ByK = {};
	const passHat: ByK = {};
	for (let k = 1; k <= maxK; k++) {
		passAt[k] = scored.reduce((sum, task) => sum + (task.passAt[k] ?? 0), 0) / scored.length;
		passHat[k] = scored.reduce((sum, task) => sum + (task.passHat[k] ?? 0), 0) / scored.length;
	}
	const counted = records.filter((record) => record.outcome !== "infra_error");
	return {
		overall: {
			tasks: tasks.length,
			scoredTasks: scored.length,
			trials: counted.length,
			passes: counted.filter((record) => record.pass).length,
			infraErrors: records.length - counted.length,
			passAt,
			passHat,
			reward: spreadOf(counted.map((record) => record.reward)),
			cost: spreadOf(records.map((record) => record.cost)),
			durationMs: spreadOf(records.map((record) => record.durationMs)),
			tokens: records.reduce((sum, record) => sum + record.tokens.total, 0),
			totalCost: records.reduce((sum, record) => sum + record.cost, 0),
		},
		tasks,
	};
}
