import type { UiTheme } from "../theme/ui-theme.js";

function str(value: unknown): string {
	return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
}

/** The title line of a tool call: built-in tools get a readable form, others their JSON arguments. */
export function describeToolCall(theme: UiTheme, name: string, args: Record<string, unknown>): string {
	const title = (text: string) => theme.bold(theme.fg("toolTitle", text));
	const accent = (text: string) => theme.fg("accent", text);
	switch (name) {
		case "bash":
			return title(`$ ${str(args.command).split("\n")[0] ?? ""}`);
		case "read": {
			const offset = typeof args.offset === "number" ? args.offset : undefined;
			const limit = typeof args.limit === "number" ? args.limit : undefined;
			const range =
				offset !== undefined || limit !== undefined
					? `:${offset ?? 1}${limit !== undefined ? `-${(offset ?? 1) + limit - 1}` : ""}`
					: "";
			return `${title("read")} ${accent(`${str(args.path)}${range}`)}`;
		}
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
