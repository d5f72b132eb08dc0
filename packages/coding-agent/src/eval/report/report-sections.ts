import type { EvalSummary } from "../metrics/summary.js";
import type { RunConfig } from "../results/run-directory.js";
import type { TrialRecord } from "../results/trial-record.js";
import { dollars, seconds } from "./format.js";
import { estimatorRows, summaryRows } from "./summary-table.js";

/** Trial rows shared by the Markdown and HTML reports; `link` renders the session page cell. */
export function trialRows(
	records: readonly TrialRecord[],
	pages: ReadonlyMap<TrialRecord, string>,
	link: (path: string) => string,
): { header: string[]; rows: string[][] } {
	const sorted = [...records].sort((a, b) => a.task.localeCompare(b.task) || a.trial - b.trial);
	return {
		header: [
			"task",
			"trial",
			"outcome",
			"reward",
			"time",
			"turns",
			"tool calls",
			"tokens",
			"cost",
			"stop",
			"error",
			"session",
		],
		rows: sorted.map((record) => {
			const page = pages.get(record);
			return [
				record.task,
				String(record.trial),
				record.outcome,
				String(record.reward),
				seconds(record.durationMs),
				String(record.turns),
				String(record.toolCalls),
				String(record.tokens.total),
				dollars(record.cost),
				record.stopReason,
				record.error ?? "",
				page ? link(page) : "",
			];
		}),
	};
}

/** The setup a run measured, as label/value pairs. */
export function setupLines(config: RunConfig): [string, string][] {
	const { setup } = config;
	const lines: [string, string][] = [
		["model", setup.model],
		["trials per task (k)", String(config.k)],
		["backend", config.backend],
	];
	if (setup.thinking) lines.push(["thinking", setup.thinking]);
	if (setup.extensions.length > 0) lines.push(["extensions", setup.extensions.join(", ")]);
	if (setup.skills.length > 0) lines.push(["skills", setup.skills.join(", ")]);
	if (setup.settingsFile) lines.push(["settings", setup.settingsFile]);
	if (config.filter) lines.push(["filter", config.filter]);
	return lines;
}

/** What a report holds, in order: the setup, then titled tables. */
export interface ReportInput {
	config: RunConfig;
	summary: EvalSummary;
	records: readonly TrialRecord[];
	pages: ReadonlyMap<TrialRecord, string>;
}

export interface ReportTable {
	title: string;
	header: string[];
	rows: string[][];
}

/** The report's tables; `link` renders a trial's session page cell in the output format. */
export function reportTables(input: ReportInput, link: (path: string) => string): ReportTable[] {
	return [
		{ title: "Tasks", ...summaryRows(input.summary) },
		{ title: "pass@k and pass^k", ...estimatorRows(input.summary) },
		{ title: "Trials", ...trialRows(input.records, input.pages, link) },
	];
}
