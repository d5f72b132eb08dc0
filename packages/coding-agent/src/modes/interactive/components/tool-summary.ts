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

/** Built-in tools get a readable form, others their JSON arguments. */
export function summarizeToolCall(name: string, args: Record<string, unknown>): ToolCallSummary {
	switch (name) {
		case "bash":
			return { title: `$ ${str(args.command).split("\n")[0] ?? ""}` };
		case "read": {
			const offset = typeof args.offset === "number" ? args.offset : undefined;
			const limit = typeof args.limit === "number" ? args.limit : undefined;
			const range =
				offset !== undefined || limit !== undefined
					? `:${offset ?? 1}${limit !== undefined ? `-${(offset ?? 1) + limit - 1}` : ""}`
					: "";
			return { title: "read", target: `${str(args.path)}${range}` };
		}
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
