import type { UiTheme } from "../theme/ui-theme.js";

/** A nested call as the `codemode` tool reports it in `details.calls` (docs/codemode.md). */
interface NestedCall {
	name: string;
	args: string;
	status: "running" | "ok" | "error" | "cancelled";
	durationMs?: number;
	error?: string;
}

const COLLAPSED_SCRIPT_LINES = 10;
const COLLAPSED_CALLS = 10;

function nestedCalls(details: unknown): NestedCall[] {
	const calls = (details as { calls?: unknown } | undefined)?.calls;
	if (!Array.isArray(calls)) return [];
	return calls.filter(
		(call): call is NestedCall =>
			typeof call === "object" && call !== null && typeof call.name === "string" && typeof call.status === "string",
	);
}

function duration(ms: number | undefined): string {
	if (ms === undefined) return "";
	return ms < 1000 ? ` ${ms}ms` : ` ${(ms / 1000).toFixed(1)}s`;
}

function callLine(theme: UiTheme, call: NestedCall): string[] {
	const mark =
		call.status === "ok"
			? theme.fg("success", "✓")
			: call.status === "error"
				? theme.fg("error", "✗")
				: call.status === "cancelled"
					? theme.fg("muted", "⊘")
					: theme.fg("muted", "…");
	const args = call.args === "{}" ? "" : ` ${theme.fg("muted", call.args)}`;
	const line = `${mark} ${theme.fg("toolTitle", call.name)}${args}${theme.fg("dim", duration(call.durationMs))}`;
	const error =
		call.status === "error" && call.error ? [`  ${theme.fg("error", call.error.split("\n")[0] ?? "")}`] : [];
	return [line, ...error];
}

/**
 * What a `codemode` call shows above its output: the script, then each tool call the script made
 * with its outcome and duration, live while it runs (from the partial results' `details.calls`).
 */
export function codemodeLines(
	theme: UiTheme,
	args: Record<string, unknown>,
	details: unknown,
	expanded: boolean,
): string[] {
	const code = typeof args.code === "string" ? args.code.replace(/\s+$/, "") : "";
	const script = code === "" ? [] : code.split("\n");
	const lines: string[] = [];
	const shownScript = expanded ? script : script.slice(0, COLLAPSED_SCRIPT_LINES);
	for (const line of shownScript) lines.push(theme.fg("toolOutput", line));
	if (shownScript.length < script.length) {
		lines.push(theme.fg("muted", `… (${script.length - shownScript.length} more script lines, expand to show)`));
	}
	const calls = nestedCalls(details);
	if (calls.length === 0) return lines;
	const shownCalls = expanded ? calls : calls.slice(-COLLAPSED_CALLS);
	lines.push("");
	if (shownCalls.length < calls.length) {
		lines.push(theme.fg("muted", `… (${calls.length - shownCalls.length} earlier calls, expand to show)`));
	}
	for (const call of shownCalls) lines.push(...callLine(theme, call));
	return lines;
}
