import { fisherExactP } from "../metrics/fisher-exact.js";
import { summarize, type TaskSummary } from "../metrics/summary.js";
import { readTrials } from "../results/run-directory.js";
import { percent, textTable } from "./format.js";

export interface TaskComparison {
	task: string;
	a?: { passes: number; trials: number };
	b?: { passes: number; trials: number };
	/** Pass rate of B minus pass rate of A, when both ran the task. */
	delta?: number;
	/** Two-sided Fisher's exact test on the two pass/fail splits. */
	p?: number;
}

function rate(summary: TaskSummary | undefined): number | undefined {
	return summary && summary.trials > 0 ? summary.passes / summary.trials : undefined;
}

function compareCounts(task: string, a: TaskSummary | undefined, b: TaskSummary | undefined): TaskComparison {
	const comparison: TaskComparison = { task };
	if (a) comparison.a = { passes: a.passes, trials: a.trials };
	if (b) comparison.b = { passes: b.passes, trials: b.trials };
	const rateA = rate(a);
	const rateB = rate(b);
	if (a && b && rateA !== undefined && rateB !== undefined) {
		comparison.delta = rateB - rateA;
		comparison.p = fisherExactP(a.passes, a.trials, b.passes, b.trials);
	}
	return comparison;
}

/** Per-task and overall pass-rate deltas between two run directories (B relative to A). */
export function compareRuns(dirA: string, dirB: string): { tasks: TaskComparison[]; overall: TaskComparison } {
	const a = summarize(readTrials(dirA));
	const b = summarize(readTrials(dirB));
	const names = [...new Set([...a.tasks, ...b.tasks].map((task) => task.task))].sort();
	const tasks = names.map((name) =>
		compareCounts(
			name,
			a.tasks.find((task) => task.task === name),
			b.tasks.find((task) => task.task === name),
		),
	);
	const pooled = (summary: typeof a) =>
		({ task: "overall", trials: summary.overall.trials, passes: summary.overall.passes }) as TaskSummary;
	return { tasks, overall: compareCounts("overall", pooled(a), pooled(b)) };
}

/** `p < 0.05` is flagged as significant, `p < 0.2` as a trend; anything else reads as noise. */
export function significanceHint(p: number | undefined): string {
	if (p === undefined) return "";
	if (p < 0.05) return "significant";
	if (p < 0.2) return "weak evidence";
	return "likely noise";
}

export function comparisonTable(result: ReturnType<typeof compareRuns>): string {
	const counts = (side: TaskComparison["a"]) =>
		side
			? `${side.passes}/${side.trials} (${percent(side.trials > 0 ? side.passes / side.trials : undefined)})`
			: "–";
	const row = (comparison: TaskComparison) => [
		comparison.task,
		counts(comparison.a),
		counts(comparison.b),
		comparison.delta === undefined
			? "–"
			: `${comparison.delta >= 0 ? "+" : ""}${(comparison.delta * 100).toFixed(1)} pts`,
		comparison.p === undefined ? "–" : comparison.p.toFixed(3),
		significanceHint(comparison.p),
	];
	return textTable(
		["task", "A passes", "B passes", "delta", "p (Fisher)", "hint"],
		[...result.tasks.map(row), row(result.overall)],
	);
}
