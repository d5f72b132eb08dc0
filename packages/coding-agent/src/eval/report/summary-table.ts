import type { EvalSummary, Figures } from "../metrics/summary.js";
import { dollars, maxK, percent, seconds } from "./format.js";

function figureRow(name: string, figures: Figures, k: number): string[] {
	return [
		name,
		String(figures.trials),
		String(figures.passes),
		String(figures.infraErrors),
		percent(figures.passAt[1]),
		percent(figures.passAt[k]),
		percent(figures.passHat[k]),
		`${figures.reward.mean.toFixed(2)} ± ${figures.reward.stddev.toFixed(2)}`,
		dollars(figures.cost.mean),
		`${seconds(figures.durationMs.mean)} ± ${seconds(figures.durationMs.stddev)}`,
	];
}

/** The per-task and overall figures as table rows: pass@1, pass@k and pass^k at the largest k, reward, cost, time. */
export function summaryRows(summary: EvalSummary): { header: string[]; rows: string[][] } {
	const k = maxK(summary.overall.passAt);
	const header = ["task", "trials", "passes", "infra", "pass@1", `pass@${k}`, `pass^${k}`, "reward", "cost", "time"];
	const rows = summary.tasks.map((task) => figureRow(task.task, task, k));
	rows.push(figureRow("overall", summary.overall, k));
	return { header, rows };
}

/** Every pass@k and pass^k of the overall summary, one row per k. */
export function estimatorRows(summary: EvalSummary): { header: string[]; rows: string[][] } {
	const rows = Object.keys(summary.overall.passAt).map((k) => [
		k,
		percent(summary.overall.passAt[k]),
		percent(summary.overall.passHat[k]),
	]);
	return { header: ["k", "pass@k", "pass^k"], rows };
}
