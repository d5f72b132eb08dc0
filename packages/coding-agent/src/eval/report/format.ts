import type { ByK } from "../metrics/summary.js";

export function percent(value: number | undefined): string {
	return value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;
}

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)}s`;
}

export function dollars(value: number): string {
	return `$${value.toFixed(4)}`;
}

/** The largest k an estimator table holds. */
export function maxK(values: ByK): number {
	return Object.keys(values).reduce((max, key) => Math.max(max, Number(key)), 0);
}

/** Rows of cells as an aligned plain-text table with a header rule. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
	const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, column) => cell.padEnd(widths[column] ?? 0))
			.join("  ")
			.trimEnd();
	return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

/** Rows of cells as a Markdown table (pipes in cells escaped). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
	const line = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`;
	return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
