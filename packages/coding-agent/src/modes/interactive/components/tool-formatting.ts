import type { Theme } from "../../../core/resources/index.js";

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

/** The title line of a tool call: built-in tools get a readable form, others their JSON arguments. */
export function describeToolCall(theme: Theme, name: string, args: Record<string, unknown>): string {
	const title = (text: string) => theme.bold(theme.fg("toolTitle", text));
	const accent = (text: string) => theme.fg("accent", text);
	switch (name) {
		case "bash":
			return title(`$ ${str(args.command).split("\n")[0] ?? ""}`);
		case "read":
			return `${title("read")} ${accent(`${str(args.path)}${formatReadLineRange(args.offset, args.limit)}`)}`;
		case "edit":
		case "write":
		case "ls":
			return `${title(name)} ${accent(str(args.path))}`;
		case "codemode":
			// The script and its calls are the body (codemode-view.ts).
			return title("codemode");
		case "grep":
		case "find":
			return `${title(name)} ${accent(str(args.pattern))}${args.path ? theme.fg("muted", ` in ${str(args.path)}`) : ""}`;
		default: {
			const json = JSON.stringify(args);
			return `${title(name)} ${theme.fg("muted", json === "{}" ? "" : json)}`;
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
