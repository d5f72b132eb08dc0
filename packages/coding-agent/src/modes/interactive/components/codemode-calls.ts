// What a `codemode` result's nested calls look like, shared by the terminal view
// (codemode-view.ts) and the HTML export's page script (docs/export.md), which must not pull in the
// terminal theme.

/** A nested call as the `codemode` tool reports it in `details.calls` (docs/codemode.md). */
export interface CodemodeNestedCall {
	name: string;
	args: string;
	status: "running" | "ok" | "error" | "cancelled";
	durationMs?: number;
	error?: string;
}

/** The well-formed rows of a `codemode` result's `details.calls` (the HTML export shows them too). */
export function codemodeNestedCalls(details: unknown): CodemodeNestedCall[] {
	const calls = (details as { calls?: unknown } | undefined)?.calls;
	if (!Array.isArray(calls)) return [];
	return calls.filter(
		(call): call is CodemodeNestedCall =>
			typeof call === "object" && call !== null && typeof call.name === "string" && typeof call.status === "string",
	);
}

/** A nested call's duration as shown beside it (`4ms`, `1.2s`); empty when unknown. */
export function callDuration(ms: number | undefined): string {
	if (ms === undefined) return "";
	return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** A nested call's argument summary; empty for no arguments. */
export function callArgsSummary(call: CodemodeNestedCall): string {
	return call.args === "{}" ? "" : call.args;
}
