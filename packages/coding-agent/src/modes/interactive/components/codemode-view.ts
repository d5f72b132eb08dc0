import type { Theme } from "../../../core/resources/index.js";
import { type CodemodeNestedCall, callArgsSummary, callDuration, codemodeNestedCalls } from "./codemode-calls.js";

const COLLAPSED_SCRIPT_LINES = 10;
const COLLAPSED_CALLS = 10;

function callLine(theme: Theme, call: CodemodeNestedCall): string[] {
	const mark =
		call.status === "ok"
			? theme.fg("success", "✓")
			: call.status === "error"
				? theme.fg("error", "✗")
				: call.status === "cancelled"
					? theme.fg("muted", "⊘")
					: theme.fg("muted", "…");
	const summary = callArgsSummary(call);
	const args = summary ? ` ${theme.fg("muted", summary)}` : "";
	const took = callDuration(call.durationMs);
	const line = `${mark} ${theme.fg("toolTitle", call.name)}${args}${took ? theme.fg("dim", ` ${took}`) : ""}`;
	const error =
		call.status === "error" && call.error ? [`  ${theme.fg("error", call.error.split("\n")[0] ?? "")}`] : [];
	return [line, ...error];
}

/**
 * What a `codemode` call shows above its output: the script, then each tool call the script made
 * with its outcome and duration, live while it runs (from the partial results' `details.calls`).
 */
export function codemodeLines(
	theme: Theme,
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
	const calls = codemodeNestedCalls(details);
	if (calls.length === 0) return lines;
	const shownCalls = expanded ? calls : calls.slice(-COLLAPSED_CALLS);
	lines.push("");
	if (shownCalls.length < calls.length) {
		lines.push(theme.fg("muted", `… (${calls.length - shownCalls.length} earlier calls, expand to show)`));
	}
	for (const call of shownCalls) lines.push(...callLine(theme, call));
	return lines;
}
