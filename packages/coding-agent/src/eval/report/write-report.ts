import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { summarize } from "../metrics/summary.js";
import { readRunConfig, readTrials } from "../results/run-directory.js";
import { textTable } from "./format.js";
import { htmlReport } from "./html-report.js";
import { markdownReport } from "./markdown-report.js";
import { exportTrialSessions } from "./session-exports.js";
import { summaryRows } from "./summary-table.js";

/** `tau eval report DIR`: returns the text table and writes `report.md` and `report.html` into DIR. */
export async function writeReport(runDir: string): Promise<{ table: string; markdown: string; html: string }> {
	const config = readRunConfig(runDir);
	const records = readTrials(runDir);
	const summary = summarize(records);
	const pages = await exportTrialSessions(runDir, records);
	const markdown = join(runDir, "report.md");
	const html = join(runDir, "report.html");
	const input = { config, summary, records, pages };
	writeFileSync(markdown, markdownReport(input));
	writeFileSync(html, htmlReport(input));
	const rows = summaryRows(summary);
	return { table: textTable(rows.header, rows.rows), markdown, html };
}
