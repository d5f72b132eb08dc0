/**
 * How a tool call reads in one line, without styling: shared by the terminal rows
 * (tool-formatting.ts) and the HTML export viewer (docs/export.md), so both describe calls alike.
 */
export interface ToolCallSummary {
	/** Bold part: the tool name, or `$ command` for bash. */
	title: string;
	/** Accented part: the path or pattern the call works on. */
	target?: string;
	/** Muted part: the search directory, or other tools' JSON arguments. */
	note?: string;
}

function str(value: unknown): string {
	return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
}

/** A finite number, or a numeric string as a number; undefined otherwise. */
function lineNumber(value: unknown): number | undefined {
	const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
	return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

/**
 * The `:start-end` suffix of a read call's path (`:start` without a limit, "" without either or for
 * malformed values); `null` counts as omitted, as strict schemas send it.
 */
export function formatReadLineRange(offset: unknown, limit: unknown): string {
	if (offset == null && limit == null) return "";
	const start = offset == null ? 1 : lineNumber(offset);
	if (start === undefined) return "";
	if (limit == null) return `:${start}`;
	const count = lineNumber(limit);
	if (count === undefined) return "";
	const end = start + count - 1;
	return end ? `:${start}-${end}` : `:${start}`;
}

/** Built-in tools get a readable form, others their JSON arguments. */
export function summarizeToolCall(name: string, args: Record<string, unknown>): ToolCallSummary {
	switch (name) {
		case "bash":
			return { title: `$ ${str(args.command).split("\n")[0] ?? ""}` };
		case "read":
			return { title: "read", target: `${str(args.path)}${formatReadLineRange(args.offset, args.limit)}` };
		case "edit":
		case "write":
		case "ls":
			return { title: name, target: str(args.path) };
		case "grep":
		case "find":
			return { title: name, target: str(args.pattern), ...(args.path ? { note: ` in ${str(args.path)}` } : {}) };
		default: {
			const json = JSON.stringify(args);
			return { title: name, note: json === "{}" ? "" : json };
		}
	}
}

/** Before the edit tool reports its real diff: the requested replacements as -/+ lines. */
export function editPreview(args: Record<string, unknown>): string | undefined {
	const edits = Array.isArray(args.edits) ? (args.edits as { oldText?: unknown; newText?: unknown }[]) : [];
	if (edits.length === 0) return undefined;
	return edits
		.flatMap((edit) => [
			...str(edit.oldText)
				.split("\n")
				.map((line) => `-${line}`),
			...str(edit.newText)
				.split("\n")
				.map((line) => `+${line}`),
		])
		.join("\n");
}
