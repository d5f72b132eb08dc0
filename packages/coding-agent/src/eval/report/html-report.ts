import { type ReportInput, reportTables, setupLines } from "./report-sections.js";

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Cells are escaped here; a cell already holding markup (the session link) is marked with a leading NUL. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
	const cell = (text: string, tag: string) =>
		`<${tag}>${text.startsWith("\0") ? text.slice(1) : escapeHtml(text)}</${tag}>`;
	const head = `<tr>${header.map((text) => cell(text, "th")).join("")}</tr>`;
	const body = rows.map((row) => `<tr>${row.map((text) => cell(text, "td")).join("")}</tr>`).join("\n");
	return `<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const STYLE =
	"body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:1rem 0}" +
	"th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#f4f4f4}" +
	"td:nth-child(3){font-weight:600}";

/** A self-contained HTML page: setup, task table, estimators, and every trial linked to its session page. */
export function htmlReport(input: ReportInput): string {
	const tables = reportTables(input, (path) => `\0<a href="${escapeHtml(encodeURI(path))}">session</a>`);
	const setup = setupLines(input.config)
		.map(([label, value]) => `<li>${escapeHtml(label)}: ${escapeHtml(value)}</li>`)
		.join("");
	return [
		"<!doctype html>",
		'<html lang="en"><head><meta charset="utf-8"><title>tau eval report</title>',
		`<style>${STYLE}</style></head><body>`,
		"<h1>tau eval report</h1>",
		`<ul>${setup}</ul>`,
		...tables.flatMap((entry) => [`<h2>${escapeHtml(entry.title)}</h2>`, table(entry.header, entry.rows)]),
		"</body></html>",
		"",
	].join("\n");
}
