import { markdownTable } from "./format.js";
import { type ReportInput, reportTables, setupLines } from "./report-sections.js";

/** `report.md`: the setup as a list, then each table with a heading. */
export function markdownReport(input: ReportInput): string {
	const tables = reportTables(input, (path) => `[session](${encodeURI(path)})`);
	return [
		"# tau eval report",
		"",
		...setupLines(input.config).map(([label, value]) => `- ${label}: ${value}`),
		...tables.flatMap((table) => ["", `## ${table.title}`, "", markdownTable(table.header, table.rows)]),
		"",
	].join("\n");
}
