import type { EvalSummary } from "../metrics/summary.js";
import { dollars, maxK, percent, seconds } from "./format.js";

/** The per-task and overall figures as table rows: pass@1, pass@k and pass^k at the largest k, reward, cost, time. */
export function summaryRows(summary: EvalSummary): { header: string[]; rows: string[][] } {
	const k = maxK(summary.overall.passAt);
	const header = ["task", "trials", "passes", "infra", "pass@1", `pass@${k}`, `pass^${k}`, "reward", "cost", "time"];
	const rows = summary.tasks.map((task) => [
		task.task,
		String(task.trials),
		String(task.passes),
		String(task.infraErrors),
		percent(task.passAt[1]),
		percent(task.passAt[k]),
		percent(task.passHat[k]),
		`${task.reward.mean.toFixed(2)} ± ${task.reward.stddev.toFixed(2)}`,
		dollars(task.cost.mean),
		`${seconds(task.durationMs.mean)} ± ${seconds(task.durationMs.stddev)}`,
	]);
	const overall = summary.overall;
	rows.push([
		"overall",
		String(overall.trials),
		String(overall.passes),
		String(overall.infraErrors),
		percent(overall.passAt[1]),
		percent(overall.passAt[k]),
		percent(overall.passHat[k]),
		`${overall.reward.mean.toFixed(2)} ± ${overall.reward.stddev.toFixed(2)}`,
		dollars(overall.cost.mean),
		`${seconds(overall.durationMs.mean)} ± ${seconds(overall.durationMs.stddev)}`,
	]);
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
